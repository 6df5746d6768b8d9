/** Internal: how path parts and file names become the keys of the route table. */

/** Path parts that would name inherited members; never routed. */
const FORBIDDEN = new Set(['constructor', '__proto__', 'prototype', 'tostring', 'valueof', 'hasownproperty',
  'isprototypeof', 'propertyisenumerable', 'tolocalestring', '__definegetter__', '__definesetter__',
  '__lookupgetter__', '__lookupsetter__'])

/**
 * `foo` → `Foo`, `foo-bar` and `foo_bar` → `FooBar`. Used for request path parts and module file names alike,
 * so `developer-keys.ts` and class `DeveloperKeys` both answer `/developer-keys`.
 */
/**
 * The class key a request path part selects, or undefined when the part is not written the documented way: lower-case
 * letters, digits and dots, words joined by single `-` or `_` (`foo`, `foo-bar`, `foo_bar`, `v3`, `openapi.json`). `/Foo`, `/fooBar` and
 * `/foo--bar` select no class (they stay positional), so one controller has one spelling per path.
 */
export function toRequestKey(part: string): string | undefined {
  let out = ''
  let upper = true
  for (let i = 0; i < part.length; i++) {
    const c = part.charCodeAt(i)
    if (c === 0x2d || c === 0x5f) {
      if (upper || i === part.length - 1) return undefined // leading, doubled or trailing separator
      upper = true
    } else if (c >= 0x61 && c <= 0x7a) {
      out += upper ? String.fromCharCode(c - 32) : part[i]
      upper = false
    } else if ((c >= 0x30 && c <= 0x39) || c === 0x2e) {
      out += part[i] // digits, and dots as in module files like `openapi.json.ts`
      upper = false
    } else return undefined
  }
  return out === '' ? undefined : out
}

export function toClassKey(part: string): string {
  // Most parts: a lower-case ASCII word without separators.
  const first = part.charCodeAt(0)
  if (first >= 97 && first <= 122 && part.indexOf('-') < 0 && part.indexOf('_') < 0) return String.fromCharCode(first - 32) + part.slice(1)
  let out = ''
  let upper = true
  for (let i = 0; i < part.length; i++) {
    const ch = part[i]!
    if (ch === '-' || ch === '_') {
      upper = true
      continue
    }
    out += upper ? ch.toUpperCase() : ch
    upper = false
  }
  return out
}

const [SHORTEST, LONGEST] = [Math.min(...[...FORBIDDEN].map((n) => n.length)), Math.max(...[...FORBIDDEN].map((n) => n.length))]

/** True for a decoded path part that must never reach the route table (traversal, NUL, inherited names). */
export function isForbiddenPart(part: string): boolean {
  if (part === '.' || part === '..') return true
  for (let i = 0; i < part.length; i++) {
    const c = part.charCodeAt(i)
    if (c === 0x2f || c === 0x5c || c < 0x20 || c === 0x7f) return true // '/', '\\', control characters, NUL
  }
  // Lower-casing is the costly part: only for parts as long as a forbidden name.
  return part.length >= SHORTEST && part.length <= LONGEST && FORBIDDEN.has(part.toLowerCase())
}

/** True when an exported name can be a controller class (`Foo`, `FooBar`, `Default`). */
export function isControllerName(name: string): boolean {
  return /^[A-Z][A-Za-z0-9]*$/.test(name)
}
