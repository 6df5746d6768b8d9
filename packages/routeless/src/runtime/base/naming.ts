/**
 * Internal: how path parts, file names, class names and method-route suffixes become the keys of the route table.
 *
 * A file or folder name and a method-route suffix are the path's spelling, as written: `style_rules.ts` →
 * `/style_rules`, `style-rules.ts` → `/style-rules`, `GET_$_report_fraud` → `/{id}/report_fraud`. A name no request
 * could spell so (`userProfile`, and every class name: `HTTPServer`) is kebab-cased (`/user-profile`, `/http-server`).
 * A segment is lower-case letters, digits and dots, words joined by single `-` or `_`.
 *
 * The other separator is an **alias**: a request may join words with `-` where the name has `_` and back
 * (`/style-rules` reaches `style_rules.ts`) unless two names of one node differ only so; an alias is never listed.
 */

/**
 * The alias key a request path part selects (its words joined by `-`), or undefined when the part is not written the
 * documented way: lower-case letters, digits and dots, words joined by single `-` or `_` (`foo`, `foo-bar`, `foo_bar`,
 * `v3`, `openapi.json`). `/Foo`, `/fooBar` and `/foo--bar` select nothing (they stay positional).
 */
export function toRequestKey(part: string): string | undefined {
  let underscore = false
  let separator = true // at the start, a separator is not allowed
  for (let i = 0; i < part.length; i++) {
    const c = part.charCodeAt(i)
    if (c === 0x2d || c === 0x5f) {
      if (separator) return undefined // leading or doubled separator
      if (c === 0x5f) underscore = true
      separator = true
    } else if ((c >= 0x61 && c <= 0x7a) || (c >= 0x30 && c <= 0x39) || c === 0x2e) {
      separator = false
    } else return undefined
  }
  if (separator) return undefined // empty, or a trailing separator
  return underscore ? part.replaceAll('_', '-') : part
}

/**
 * The words of an identifier, the way people read them: `HTTPServer` → `HTTP Server`, `XMLParser` → `XML Parser`,
 * `userProfile` → `user Profile`, `OAuth2Token` → `OAuth2 Token`, `foo_bar`/`foo-bar` → `foo bar`.
 * A digit ends nothing (`Base64Encoder` → `Base64 Encoder`); one capital before a word belongs to it (`OAuth`, `IPhone`).
 */
function words(name: string): string[] {
  const out: string[] = []
  for (const chunk of name.split(/[-_\s]+/)) {
    if (!chunk) continue
    // Break before an upper-case letter that follows a lower-case letter or a digit, and before the last capital of
    // an acronym that a lower-case letter follows.
    const split = chunk
      .replace(/([a-z0-9])([A-Z])/g, '$1\0$2')
      .replace(/([A-Z]+)([A-Z][a-z])/g, '$1\0$2')
      .split('\0')
    // A single leading capital joins the word after it: `OAuth` is one word, not `O Auth`.
    if (split.length > 1 && /^[A-Z]$/.test(split[0]!)) split.splice(0, 2, split[0]! + split[1]!)
    out.push(...split)
  }
  return out
}

/** `HTTPServer` → `http-server`, `userProfile` → `user-profile`, `foo_bar` → `foo-bar`, `openapi.json` → `openapi.json`. */
export function toSegment(name: string): string {
  return words(name)
    .map((w) => w.toLowerCase())
    .join('-')
}

/** True when `segment` is a key some request can select (see `toRequestKey`). */
export function isReachableSegment(segment: string): boolean {
  return toRequestKey(segment) !== undefined
}

/**
 * The segment a file, folder or method-route name is listed and answered at: the name as written when a request may
 * spell it so (`style_rules`, `style-rules`, `report_fraud`), else kebab-cased (`userProfile` → `user-profile`).
 */
export function writtenSegment(name: string): string {
  return toRequestKey(name) === undefined ? toSegment(name) : name
}

/** The alias key of a segment: its words joined by `-` (`style_rules` → `style-rules`). */
export function aliasKey(segment: string): string {
  return segment.replaceAll('_', '-')
}

/** True for a decoded path part that must never reach the route table: a dot segment, `/`, `\\`, NUL or a control character. */
export function isForbiddenPart(part: string): boolean {
  if (part === '.' || part === '..') return true
  for (let i = 0; i < part.length; i++) {
    const c = part.charCodeAt(i)
    if (c === 0x2f || c === 0x5c || c < 0x20 || c === 0x7f) return true // '/', '\\', control characters, NUL
  }
  return false
}

/** True when an exported name can be a controller class (`Foo`, `FooBar`, `Default`). */
export function isControllerName(name: string): boolean {
  return /^[A-Z][A-Za-z0-9]*$/.test(name)
}
