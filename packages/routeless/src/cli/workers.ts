/**
 * Internal: `routeless --workers=N`, several processes serving one port (node:cluster). Every worker loads the
 * controllers and serves: node:http workers share the primary's listening socket, uWebSockets.js workers each listen
 * with SO_REUSEPORT and the kernel spreads the connections. The primary only supervises: it starts the workers one
 * after the other (a controller that fails to load fails once, not N times), replaces a worker that dies while
 * serving, and on SIGINT/SIGTERM asks every worker to drain, waits, and exits 0 when they all did.
 */
import type { Worker } from 'node:cluster'
import { createServer } from 'node:net'
import { availableParallelism } from 'node:os'
import { addressInUse } from '../runtime/server/shared/serving.ts'
import type { StopSignal } from './io.ts'

/** Set by the primary in each worker's environment: the `host:port` to serve (the port already chosen). */
export const WORKER_HOST_ENV = 'ROUTELESS_WORKER_HOST'

interface Listening {
  routeless: 'listening'
  url: string
  handlers: number
}

/** `--workers`: a positive integer, or `auto` for one per core. */
export function parseWorkers(value: string | number | undefined): number {
  if (value === undefined || value === '') return 1
  if (value === 'auto') return availableParallelism()
  const n = Number(value)
  if (!Number.isInteger(n) || n < 1)
    throw new Error(`Invalid --workers "${value}": expected a positive integer or auto`)
  return n
}

/**
 * True in a process the primary started. node:cluster (and child_process, which it loads: ~15 ms of start-up) is
 * imported only where the primary's variable says this may be one of its workers.
 */
export async function isWorker(): Promise<boolean> {
  if (process.env[WORKER_HOST_ENV] === undefined) return false
  return (await import('node:cluster')).default.isWorker
}

/** In a worker: tells the primary this worker serves. */
export function reportListening(url: string, handlers: number): void {
  const message: Listening = { routeless: 'listening', url, handlers }
  process.send?.(message)
}

/**
 * In a worker: resolves when the primary says stop, the primary is gone, or a signal arrives. The signal handlers
 * stay installed, so the second signal of a Ctrl-C (which reaches every process of the group) cannot kill a worker
 * that is draining.
 */
export function workerStopSignal(): Promise<StopSignal> {
  return new Promise((resolve) => {
    process.on('message', (m: Stop) => m?.routeless === 'stop' && resolve(m.signal === 'SIGINT' ? 'SIGINT' : 'SIGTERM'))
    process.once('disconnect', () => resolve('SIGINT'))
    process.on('SIGINT', () => resolve('SIGINT'))
    process.on('SIGTERM', () => resolve('SIGTERM'))
  })
}

/** The primary's word to a worker: stop, as on `signal` (SIGTERM: after the drain delay). */
interface Stop {
  routeless?: string
  signal?: StopSignal
}

/** In a worker, once drained: close the channel to the primary, so that nothing keeps the process alive. */
export function leave(): void {
  if (process.connected) process.disconnect()
}

export interface PrimaryOptions {
  count: number
  host: string
  port: number
  /** Passed to every worker's environment (the server the primary chose). */
  env: Record<string, string>
  stdout: (line: string) => void
  stderr: (line: string) => void
  /** Resolves when the workers should stop (with the signal, passed on to them). */
  stopSignal: Promise<StopSignal | undefined>
  /** The workers' drain delay on SIGTERM, in ms: added to the time a stopping worker is given. */
  drainDelay?: number
  /** The line printed once every worker listens. */
  describe: (url: string, handlers: number) => string
  /** How long a stopping worker may take before it is killed, in ms. */
  drainTimeout?: number
}

/** Runs the primary: starts, supervises and stops the workers. Resolves to the exit code. */
export async function runPrimary(o: PrimaryOptions): Promise<number> {
  let port: number
  try {
    port = await reservePort(o.host, o.port)
  } catch (error) {
    o.stderr(`routeless: ${(error as Error).message}`)
    return 1
  }
  const { default: cluster } = await import('node:cluster')
  const env = { ...o.env, [WORKER_HOST_ENV]: `${o.host.includes(':') ? `[${o.host}]` : o.host}:${port}` }
  const live = new Set<Worker>()
  let stopping = false

  /** Forks one worker; resolves when it listens, or with its exit code when it dies first. */
  const start = () =>
    new Promise<Listening | { code: number }>((resolve) => {
      const worker = cluster.fork(env)
      live.add(worker)
      let listening = false
      worker.on('message', (m: Listening) => {
        if (m?.routeless !== 'listening' || listening) return
        listening = true
        resolve(m)
      })
      worker.once('exit', (code, signal) => {
        live.delete(worker)
        if (!listening) return resolve({ code: code || 1 })
        if (stopping) return
        o.stderr(`routeless: worker ${worker.process.pid} exited (${signal ?? `code ${code}`}); starting another`)
        void start().then(
          (r) => 'code' in r && o.stderr(`routeless: the replacement worker exited with code ${r.code}`),
        )
      })
    })

  let first: Listening | undefined
  for (let i = 0; i < o.count; i++) {
    const r = await start()
    if ('code' in r) {
      stopping = true
      await stopAll(live, o.drainTimeout)
      return r.code
    }
    first ??= r
  }
  o.stdout(o.describe(first!.url, first!.handlers))
  const signal = (await o.stopSignal) ?? 'SIGTERM'
  stopping = true
  const delay = signal === 'SIGTERM' ? (o.drainDelay ?? 0) : 0
  return (await stopAll(live, o.drainTimeout, signal, delay)) ? 0 : 1
}

/** Asks every worker to drain and waits; kills the ones still there after the drain timeout. True if all exited 0. */
async function stopAll(
  live: Set<Worker>,
  drainTimeout = 10_000,
  signal: StopSignal = 'SIGINT',
  drainDelay = 0,
): Promise<boolean> {
  let clean = true
  await Promise.all(
    [...live].map(
      (worker) =>
        new Promise<void>((resolve) => {
          const timer = setTimeout(() => worker.process.kill('SIGKILL'), drainDelay + drainTimeout + 2000)
          worker.once('exit', (code) => {
            clearTimeout(timer)
            if (code !== 0) clean = false
            resolve()
          })
          const stop: Stop = { routeless: 'stop', signal }
          if (worker.isConnected()) worker.send(stop)
          else worker.process.kill(signal)
        }),
    ),
  )
  return clean
}

/**
 * Checks that `host:port` is free and picks a port when `port` is 0, so that every worker gets the same one (a uWS
 * worker listening on port 0 would get a port of its own).
 */
function reservePort(host: string, port: number): Promise<number> {
  return new Promise((resolve, reject) => {
    const probe = createServer()
    probe.once('error', (error: NodeJS.ErrnoException) => {
      reject(error.code === 'EADDRINUSE' ? addressInUse(host, port) : error)
    })
    probe.listen(port, host, () => {
      const chosen = (probe.address() as { port: number }).port
      probe.close(() => resolve(chosen))
    })
  })
}
