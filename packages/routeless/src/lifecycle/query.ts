/**
 * The query string as keyword arguments: repeated keys become arrays, `ids[]` is an alias of `ids` (always an
 * array), `__proto__` is never a key.
 * @module
 */
import type { Kwargs, KwargValue } from '../app/controller.ts'

/** Query parameters as keyword arguments: repeated keys become arrays, `ids[]` is an alias of `ids` (always an array). */
export function getQuery(url: URL): Kwargs {
  return parseQuery(url.search.length <= 1 ? '' : url.search.slice(1))
}

/** `getQuery` from the raw query string (what follows the `?`), with no URL to parse. */
export function parseQuery(query: string): Kwargs {
  const out: Kwargs = Object.create(null)
  if (query.length === 0) return out
  // Without `%` or `+` nothing is decoded: split by hand, as the urlencoded parser would (empty pairs skipped, a
  // pair without `=` has the value ''), sparing a URLSearchParams per request.
  if (query.includes('%') || query.includes('+')) {
    addEntries(out, new URLSearchParams(query))
    return out
  }
  const pairs: [string, string][] = []
  for (const pair of query.split('&')) {
    if (pair === '') continue
    const eq = pair.indexOf('=')
    pairs.push(eq < 0 ? [pair, ''] : [pair.slice(0, eq), pair.slice(eq + 1)])
  }
  addEntries(out, pairs)
  return out
}

export function addEntries(out: Kwargs, entries: Iterable<[string, string | File]>): void {
  for (const [rawKey, value] of entries) {
    const list = rawKey.endsWith('[]')
    const key = list ? rawKey.slice(0, -2) : rawKey
    if (key === '__proto__') continue
    const prev = out[key]
    if (prev === undefined) out[key] = list ? [value as string] : value
    else if (Array.isArray(prev)) (prev as unknown[]).push(value)
    else out[key] = [prev, value] as KwargValue
  }
}
