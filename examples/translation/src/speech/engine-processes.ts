/**
 * The local speech programs of one app (`pocketsphinx_continuous`, `espeak-ng`), each run with its input on stdin or
 * in a file and its output collected, and their lifetime tied to the server's rather than to the signals it receives.
 *
 * When a service stops, every process of it may get SIGTERM at once (systemd's default `KillMode=control-group`, a
 * signal to a process group): a recogniser would die first and fail its voice session before the server even began
 * its drain. So each program starts ignoring SIGTERM — through `sh -c "trap '' TERM; exec …"`, as an ignored signal
 * survives `exec` — and goes on through the drain; the server ends them itself: a run whose caller gives up (its
 * signal aborts: a timeout, a closed voice session) is killed, `stop()` (the app's close, after the drain) kills
 * what is left, and the process exiting kills any still running, so none outlives the server.
 *
 * A run that ends badly once the instance is stopping (`drain()` or `stop()` called), or by SIGTERM (which can reach
 * one only before its shell has set the signal aside: someone is stopping the whole instance), rejects with
 * `EngineStopped` — the server going away, not a failure of the engine.
 */
import { spawn, type ChildProcess } from 'node:child_process'
import { EngineStopped } from './speech-engine.ts'

export interface ProcessResult {
  stdout: Buffer
  stderr: string
}

export interface RunOptions {
  stdin?: Uint8Array
  /** Aborting kills the run (SIGKILL). */
  signal: AbortSignal
  /** Output beyond this many bytes kills the run (default 64 MiB). */
  maxOutput?: number
}

/** `sh -c SHIELD command args…`: the command exec'd with SIGTERM ignored (`$0`: the command, `$@`: its arguments). */
const SHIELD = `trap '' TERM; exec "$0" "$@"`

export class EngineProcesses {
  private readonly running = new Set<ChildProcess>()
  /** From `drain()` on. */
  private stopping = false
  /** From `stop()` on: nothing more is started. */
  private stopped = false
  private readonly killAll = () => {
    for (const child of this.running) child.kill('SIGKILL')
  }

  /** Process ids of the runs in progress. */
  get pids(): number[] {
    return [...this.running].flatMap((child) => (child.pid === undefined ? [] : [child.pid]))
  }

  /** The instance began to stop (SIGTERM): runs go on through the drain; one that ends badly now is `EngineStopped`. */
  drain(): void {
    this.stopping = true
  }

  /** Kills every run in progress (they ignore SIGTERM: SIGKILL) and waits until they have exited. */
  async stop(): Promise<void> {
    this.stopping = true
    this.stopped = true
    const exits = [...this.running].map((child) => new Promise((resolve) => child.once('close', resolve)))
    this.killAll()
    await Promise.all(exits)
  }

  run(command: string, args: string[], options: RunOptions): Promise<ProcessResult> {
    if (this.stopped) return Promise.reject(new EngineStopped(`${command} was not started: the server is stopping`))
    return new Promise((resolve, reject) => {
      const child = spawn('sh', ['-c', SHIELD, command, ...args], {
        stdio: ['pipe', 'pipe', 'pipe'],
        signal: options.signal,
        killSignal: 'SIGKILL',
      })
      this.track(child)
      const out: Buffer[] = []
      let size = 0
      let err = ''
      child.stdout.on('data', (chunk: Buffer) => {
        size += chunk.length
        if (size > (options.maxOutput ?? 64 * 1024 * 1024)) child.kill('SIGKILL')
        else out.push(chunk)
      })
      child.stderr.on('data', (chunk: Buffer) => {
        if (err.length < 4096) err += chunk.toString()
      })
      // Aborting emits an AbortError at once: the run settles when the killed program has exited (below).
      child.on('error', (error) => {
        if (error.name !== 'AbortError') reject(error)
      })
      child.on('close', (code, signal) => {
        if (code === 0) return resolve({ stdout: Buffer.concat(out), stderr: err })
        // A missing program: sh exits 127 and says "not found" (the last line of its stderr, in the message).
        const last = err.trim().split('\n').pop() ?? ''
        const message = `${command} exited with ${code ?? signal}: ${last}`
        if (signal === 'SIGTERM' || (this.stopping && !options.signal.aborted)) reject(new EngineStopped(message))
        else reject(new Error(message))
      })
      child.stdin.on('error', () => {}) // the program may exit before reading everything
      child.stdin.end(options.stdin ?? new Uint8Array(0))
    })
  }

  private track(child: ChildProcess): void {
    if (this.running.size === 0) process.on('exit', this.killAll)
    this.running.add(child)
    child.once('close', () => {
      this.running.delete(child)
      if (this.running.size === 0) process.off('exit', this.killAll)
    })
  }
}
