/**
 * How the examples' `src/main.ts` stop, the way `routeless` does on the command line: on SIGTERM (a supervisor, a
 * rolling deploy) the server reports `draining` — `/readyz` answers 503 — and serves on for DRAIN_DELAY_MS so that a
 * load balancer stops sending, then drains; Ctrl-C (SIGINT), or a second signal, skips the delay. Then the app's own
 * resources close (job workers, the database) and the process exits 0.
 */

/** The part of a routeless server a stop needs (routeless/node and routeless/uws both return one). */
export interface Closable {
  close(options?: { delay?: number }): Promise<void>
}

/** `DRAIN_DELAY_MS`: whole milliseconds, default 0 (no load balancer to wait for). */
export function drainDelayOf(env: NodeJS.ProcessEnv): number {
  const value = env.DRAIN_DELAY_MS
  if (value === undefined || value === '') return 0
  if (!/^\d+$/.test(value)) throw new Error(`DRAIN_DELAY_MS must be a whole number of milliseconds, got "${value}"`)
  return Number(value)
}

/**
 * Stops `server` on SIGTERM or SIGINT as above, then runs `close`, then exits. `drain`, when given, is told first,
 * before the drain delay: the app learns that what fails from now on fails because the instance is going away.
 */
export function stopOnSignals(
  server: Closable,
  close: () => Promise<void>,
  log: (line: string) => void,
  drain?: () => void,
): void {
  let stopping = false
  const stop = async (signal: NodeJS.Signals) => {
    if (stopping) return void server.close({ delay: 0 }) // a second signal: no more waiting
    stopping = true
    log(`${signal}: draining`)
    try {
      drain?.()
      await server.close(signal === 'SIGINT' ? { delay: 0 } : undefined)
      await close()
    } finally {
      process.exit(0)
    }
  }
  process.on('SIGINT', (s) => void stop(s))
  process.on('SIGTERM', (s) => void stop(s))
}
