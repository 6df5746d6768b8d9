/**
 * A dependency that cannot be reached (the database restarting, Redis stopped) answers a clear 503 — routeless's
 * `HttpError`, so each example's error format shows it — never a 500 or a request left hanging. `isConnectionLoss`
 * knows the errors that mean "not reachable now" rather than "this query is wrong".
 */
import { HttpError } from 'routeless'

/** Seconds a client is told to wait before it tries again. */
export const RETRY_AFTER_SECONDS = 2

/**
 * PostgreSQL error classes and codes meaning the server cannot answer now: 08 (connection exception), 57P01–57P03
 * (shut down by an administrator or a crash, starting up), 53300 (too many connections).
 */
const UNAVAILABLE_SQLSTATE = /^(08|57P0[123]$|53300$)/
/** Socket errors of a server that is gone or not there yet. */
const SOCKET_CODES = new Set([
  'ECONNREFUSED',
  'ECONNRESET',
  'EPIPE',
  'ETIMEDOUT',
  'EHOSTUNREACH',
  'ENETUNREACH',
  'EAI_AGAIN',
])
/** node-postgres's own words for a connection it lost or could not make in time. */
const PG_MESSAGES =
  /^(Connection terminated|timeout exceeded when trying to connect|Client has encountered a connection error|Client was closed)/

/** Whether `error` says the server could not be reached (not that the query was wrong). */
export function isConnectionLoss(error: unknown): boolean {
  if (!error || typeof error !== 'object') return false
  const e = error as { code?: unknown; message?: unknown; errors?: unknown }
  if (typeof e.code === 'string' && (SOCKET_CODES.has(e.code) || UNAVAILABLE_SQLSTATE.test(e.code))) return true
  if (typeof e.message === 'string' && PG_MESSAGES.test(e.message)) return true
  // Connecting to a name with several addresses fails with one error per address.
  return Array.isArray(e.errors) && e.errors.length > 0 && e.errors.every(isConnectionLoss)
}

/** The 503 a request gets while `what` (`the database`, `the rate limiter`) cannot be reached. */
export function unavailable(what: string, cause?: unknown): HttpError {
  return new HttpError(503, `Service temporarily unavailable: ${what} cannot be reached.`, {
    headers: { 'Retry-After': String(RETRY_AFTER_SECONDS) },
    cause,
  })
}

/** `error` as a 503 when it is a connection loss, else as it is. */
export function asUnavailable(what: string, error: unknown): unknown {
  return isConnectionLoss(error) ? unavailable(what, error) : error
}
