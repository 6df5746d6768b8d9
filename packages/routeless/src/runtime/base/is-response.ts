/**
 * Internal: `value instanceof Response` that leaves the global `Response` unread for plain data. On node, the first
 * read of that global loads undici (about 25 ms of CPU, at an app's first request), which an app answering objects,
 * arrays and strings never needs; a Response is never a plain object or an array.
 * @module
 */

/** True when `value` is a Fetch `Response`; a plain object or an array is answered without touching the global. */
export function isResponse(value: unknown): value is Response {
  if (typeof value !== 'object' || value === null) return false
  const made = (value as object).constructor
  return made !== Object && made !== Array && value instanceof Response
}
