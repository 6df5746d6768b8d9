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

/** `getQuery` from the raw query string (what follows the `?`; or `query` from `from` on: a target after its `?`). */
export function parseQuery(query: string, from = 0): Kwargs {
  const out = newKwargs()
  const n = query.length
  // One pass over the characters (as `splitPath`): pairs at `&`, the first `=` splits a pair, empty pairs skipped, a
  // pair without `=` has the value ''. A `%` or `+` hands the whole text to the urlencoded parser, which decodes.
  // (`includes`, `indexOf` and `slice` per pair cost more calls into V8's builtins than the loop.)
  let start = from
  let eq = -1
  for (let i = from; i <= n; i++) {
    const c = i < n ? query.charCodeAt(i) : 0x26
    if (c === 0x26) {
      if (i > start) {
        if (eq < 0) addEntry(out, query.slice(start, i), '')
        else addEntry(out, query.slice(start, eq), query.slice(eq + 1, i))
      }
      start = i + 1
      eq = -1
    } else if (c === 0x3d) {
      if (eq < 0) eq = i
    } else if (c === 0x25 || c === 0x2b) {
      const decoded = newKwargs()
      addEntries(decoded, urlencoded(from === 0 ? query : query.slice(from)))
      return decoded
    }
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
  const k = rawKey.length
  const list = k >= 2 && rawKey.charCodeAt(k - 1) === 0x5d && rawKey.charCodeAt(k - 2) === 0x5b // `[]`
  const key = list ? rawKey.slice(0, -2) : rawKey
  if (key === '__proto__') return
  const prev = out[key]
  if (prev === undefined) out[key] = list ? [value as string] : value
  else if (Array.isArray(prev)) (prev as unknown[]).push(value)
  else out[key] = [prev, value] as KwargValue
}
