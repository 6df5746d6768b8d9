/**
 * The query string as keyword arguments: repeated keys become arrays, `ids[]` is an alias of `ids` (always an
 * array), `__proto__` is never a key.
 * @module
 */
import type { Kwargs, KwargValue } from '../base/controller.ts'

/**
 * The prototype of every keywords object: it has no members, so a key from a request (`toString`, `constructor`) is
 * never an inherited one. An object made from it is an ordinary one in V8, where `Object.create(null)` makes a
 * dictionary at once, slower to fill and to read.
 */
export const KWARGS_PROTO: object = Object.freeze(Object.create(null))

const Keywords = function Keywords() {} as unknown as new () => Kwargs
Keywords.prototype = KWARGS_PROTO as Kwargs

/** A new, empty keywords object (see `KWARGS_PROTO`). */
export function newKwargs(): Kwargs {
  return new Keywords()
}

/** Query parameters as keyword arguments: repeated keys become arrays, `ids[]` is an alias of `ids` (always an array). */
export function getQuery(url: URL): Kwargs {
  return parseQuery(url.search.length <= 1 ? '' : url.search.slice(1))
}

/** `getQuery` from the raw query string (what follows the `?`), with no URL to parse. */
export function parseQuery(query: string): Kwargs {
  const out = newKwargs()
  if (query.length === 0) return out
  // Without `%` or `+` nothing is decoded: split by hand, as the urlencoded parser would (empty pairs skipped, a
  // pair without `=` has the value ''), sparing a URLSearchParams per request.
  if (query.includes('%') || query.includes('+')) {
    addEntries(out, urlencoded(query))
    return out
  }
  let start = 0
  while (start <= query.length) {
    let end = query.indexOf('&', start)
    if (end < 0) end = query.length
    if (end > start) {
      const pair = query.slice(start, end)
      const eq = pair.indexOf('=')
      if (eq < 0) addEntry(out, pair, '')
      else addEntry(out, pair.slice(0, eq), pair.slice(eq + 1))
    }
    start = end + 1
  }
  return out
}

/**
 * The pairs of an `application/x-www-form-urlencoded` text (a query, a form body), as the URL standard's parser reads
 * them. `new URLSearchParams(text)` drops one leading `?` first (it takes `location.search`); the parser does not: in
 * `/items??ids=1` the key is `?ids`, decoded or not.
 */
export function urlencoded(text: string): URLSearchParams {
  return new URLSearchParams(text.charCodeAt(0) === 63 ? `&${text}` : text)
}

export function addEntries(out: Kwargs, entries: Iterable<[string, string | File]>): void {
  for (const [rawKey, value] of entries) addEntry(out, rawKey, value)
}

/** One `key=value`: a repeated key becomes an array, `ids[]` is always one, `__proto__` is never a key. */
function addEntry(out: Kwargs, rawKey: string, value: string | File): void {
  const list = rawKey.endsWith('[]')
  const key = list ? rawKey.slice(0, -2) : rawKey
  if (key === '__proto__') return
  const prev = out[key]
  if (prev === undefined) out[key] = list ? [value as string] : value
  else if (Array.isArray(prev)) (prev as unknown[]).push(value)
  else out[key] = [prev, value] as KwargValue
}
