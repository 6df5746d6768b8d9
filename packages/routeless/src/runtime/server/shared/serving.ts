/**
 * What every server shares: its options, the handle it returns, the application surface it serves, and the timings
 * of a graceful stop — the drain delay included (`Shutdown`, below).
 * @module
 */
import type { Application } from '../../app/application.ts'

export interface ServeOptions {
  /** Interface to listen on (default `127.0.0.1`). */
  host?: string
  /** Port (default 8000; 0 picks a free one). */
  port?: number
  /** How long `close()` waits for in-flight requests before cutting connections, in ms (default 10 000). */
  drainTimeout?: number
  /**
   * Lingering close: after an answer that leaves part of the request body unsent by the client (a 413, an early
   * error), the server goes on reading and dropping what the client sends, for at most `time` ms and `bytes` bytes
   * (default 5 000 ms, 16 MiB), before it closes. A client that writes its whole body before reading (Python's
   * requests and httpx do) then reads the answer instead of meeting a broken pipe or a reset.
   */
  linger?: { time?: number; bytes?: number }
  /**
   * How long `close()` goes on serving, with `draining` set, before it stops accepting, in ms (default 0). Readiness
   * checks answer 503 meanwhile (`this.env.draining` in a controller), so a load balancer stops sending here before
   * the port closes: give it the balancer's health-check interval times its failure threshold, plus a margin.
   */
  drainDelay?: number
}

export interface CloseOptions {
  /**
   * This stop's drain delay instead of the server's `drainDelay` (0: stop accepting now). Given to a second call
   * while the first is still delaying, a shorter delay ends the wait sooner (a second Ctrl-C).
   */
  delay?: number
}

export interface RunningServer {
  /** `http://host:port` */
  url: string
  port: number
  /**
   * True from the first `close()` on: the server is going away. Controllers read it as `this.env.draining` (a
   * readiness check answers 503 then).
   */
  readonly draining: boolean
  /**
   * Sets `draining`, goes on serving for the drain delay (`drainDelay`, or `options.delay`), then stops accepting,
   * answers what is in flight with `Connection: close`, closes idle keep-alive connections (after a short grace, so
   * a client between two requests gets its next answer instead of a reset), and cuts what is left when the drain
   * timeout passes.
   */
  close(options?: CloseOptions): Promise<void>
}

/** The application as a server needs it: `fetch`, and the core's `handle` and route table when it has them. */
export type Servable = Pick<Application, 'fetch'> & Partial<Pick<Application, 'handle' | 'table'>>

/** How long idle keep-alive connections are left open once `close()` is called (bounded by the drain timeout). */
export const IDLE_GRACE = 250
/** Lingering close, by default: at most this long, in ms… */
export const LINGER_TIME = 5000
/** …and at most this many bytes read and dropped. */
export const LINGER_BYTES = 16 * 1024 * 1024

// The WebSocket limits: the largest message (bytes) and how long a silent socket stays open (s).
export { MAX_MESSAGE, SOCKET_IDLE } from '../../lifecycle/host-sockets.ts'

/** How long `close()` waits for in-flight requests by default, in ms. */
export const DRAIN_TIMEOUT = 10_000

/**
 * A server's stop, as both servers run it: `draining` from the first `close()`, the drain delay (shortened by a later
 * call with a shorter one), then `stop` (the server's own drain) once.
 */
export class Shutdown {
  draining = false
  private stopped: Promise<void> | undefined
  private deadline = 0
  private timer: NodeJS.Timeout | undefined
  private go: (() => void) | undefined

  constructor(
    private readonly delay: number,
    private readonly stop: () => Promise<void>,
  ) {
    checkDelay(delay, 'drainDelay')
  }

  close(options: CloseOptions = {}): Promise<void> {
    const delay = options.delay ?? this.delay
    checkDelay(delay, 'close({ delay })')
    this.draining = true
    const deadline = Date.now() + delay
    if (this.stopped) {
      if (this.go && deadline < this.deadline) this.wait(delay)
      return this.stopped
    }
    if (delay === 0) return (this.stopped = this.stop())
    this.stopped = new Promise<void>((resolve) => {
      this.go = resolve
      this.wait(delay)
    }).then(() => {
      this.go = undefined
      return this.stop()
    })
    return this.stopped
  }

  private wait(delay: number): void {
    clearTimeout(this.timer)
    this.deadline = Date.now() + delay
    this.timer = setTimeout(() => this.go?.(), delay)
  }
}

/** The handle a server returns once it listens on `port`: its URL (an IPv6 host in brackets) and its stop. */
export function running(host: string, port: number, shutdown: Shutdown): RunningServer {
  return {
    url: `http://${host.includes(':') ? `[${host}]` : host}:${port}`,
    port,
    get draining() {
      return shutdown.draining
    },
    close: (options) => shutdown.close(options),
  }
}

/** A port another process holds, as every server reports it (`code: 'EADDRINUSE'`, as node:http's error). */
export function addressInUse(host: string, port: number): Error {
  return Object.assign(new Error(`Port ${port} on ${host} is already in use`), { code: 'EADDRINUSE' })
}

function checkDelay(delay: number, name: string): void {
  if (!Number.isFinite(delay) || delay < 0)
    throw new RangeError(`${name} must be a number of milliseconds, 0 or more, got ${delay}`)
}
