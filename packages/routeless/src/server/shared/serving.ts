/**
 * What every server shares: its options, the handle it returns, the application surface it serves, and the timings
 * of a graceful stop.
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
}

export interface RunningServer {
  /** `http://host:port` */
  url: string
  port: number
  /**
   * Stops accepting at once, answers what is in flight with `Connection: close`, closes idle keep-alive connections
   * (after a short grace, so a client between two requests gets its next answer instead of a reset), and cuts what
   * is left when the drain timeout passes.
   */
  close(): Promise<void>
}

/** The application as a server needs it: `fetch`, and the core's `handle` and route table when it has them. */
export type Servable = Pick<Application, 'fetch'> & Partial<Pick<Application, 'handle' | 'table'>>

/** How long idle keep-alive connections are left open once `close()` is called (bounded by the drain timeout). */
export const IDLE_GRACE = 250
/** Lingering close, by default: at most this long, in ms… */
export const LINGER_TIME = 5000
/** …and at most this many bytes read and dropped. */
export const LINGER_BYTES = 16 * 1024 * 1024

/** How long `close()` waits for in-flight requests by default, in ms. */
export const DRAIN_TIMEOUT = 10_000
