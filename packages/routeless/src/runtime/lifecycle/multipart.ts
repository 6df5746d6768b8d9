/**
 * Limits on a multipart/form-data body checked before it is parsed: parsing cost grows with the number of parts, so
 * a body of many tiny parts (140 000 in 9.5 MB held the event loop ~940 ms) is refused by counting its delimiters
 * first — a byte search that stops as soon as the limit is crossed.
 *
 * The count is only as good as the boundary it searches for: it must be the one the parser will use. So the
 * Content-Type is read strictly, and what could be read two ways is refused (400) before a byte is parsed: no
 * boundary, two of them, one that is not 1 to 70 of the characters RFC 2046 allows, a quoted text with a backslash,
 * or parameters that are not `; name=value` pairs. Every multipart parser (undici's WHATWG reading, Bun's, Deno's,
 * workerd's) reads what is left the same way.
 * @module
 */
import { HttpError } from '../base/errors.ts'

/** Most parts a multipart body may have unless the application says otherwise (`AppOptions.partLimit`). */
export const DEFAULT_PART_LIMIT = 1000

/** One `; name=value` parameter (a token, then a token-like value or a quoted text without escapes), or a bare `;`. */
const PARAMETER = /;[ \t]*(?:([\w!#$%&'*+.^`|~-]+)=("[^"\\]*"|[^ \t;"\\]*))?[ \t]*/y
/** RFC 2046 §5.1.1: 1 to 70 of these characters, the last not a space. */
const BOUNDARY = /^[\w'()+,\-./:=? ]{0,69}[\w'()+,\-./:=?]$/

/**
 * The boundary of a multipart Content-Type, read strictly; a 400 naming what is wrong when it is missing, ambiguous
 * or not a boundary RFC 2046 allows. `boundary=` twice anywhere (a quoted text included) is ambiguous: some parser
 * reads the other one.
 */
export function boundaryOf(contentType: string): string {
  if ((contentType.match(/boundary[ \t]*=/gi)?.length ?? 0) > 1) throw badType('boundary given twice')
  let boundary: string | undefined
  let at = contentType.indexOf(';')
  while (at >= 0 && at < contentType.length) {
    PARAMETER.lastIndex = at
    const match = PARAMETER.exec(contentType)
    if (!match) throw badType('its parameters cannot be read')
    at = PARAMETER.lastIndex
    if (match[1]?.toLowerCase() === 'boundary') boundary = match[2]!.replace(/^"(.*)"$/, '$1')
  }
  if (boundary === undefined) throw badType('no boundary')
  if (!BOUNDARY.test(boundary)) throw badType('the boundary is not 1 to 70 characters RFC 2046 allows')
  return boundary
}

// Marked pure, as body-text.ts's decoders: a bundle that reads no body keeps none.
const LATIN1 = /* @__PURE__ */ new TextDecoder('latin1')

/**
 * How many parts the multipart body holds at most (its delimiter lines, RFC 2046 §5.1.1), counting no further than
 * `limit + 1`. Every delimiter a parser takes is one of these, so the parser finds no more parts than this.
 */
export function countParts(bytes: Uint8Array, boundary: string, limit = Infinity): number {
  // One character per byte (windows-1252 decodes every byte to one), so the ASCII delimiter is found where its bytes
  // are; no `Buffer`, which a Worker without `nodejs_compat` does not have.
  const buffer = LATIN1.decode(bytes)
  const delimiter = `\r\n--${boundary}`
  // The first delimiter may open the body without a line break before it; each part ends at the next delimiter.
  let delimiters = buffer.startsWith(delimiter.slice(2)) ? 1 : 0
  let at = buffer.indexOf(delimiter)
  while (at >= 0) {
    delimiters++
    // n delimiters close n - 1 parts (the last is the closing one).
    if (delimiters - 1 > limit) break
    at = buffer.indexOf(delimiter, at + delimiter.length)
  }
  return Math.max(0, delimiters - 1)
}

/**
 * Reads the boundary (a 400 when it cannot be read unambiguously) and counts the parts, throwing a 413 naming the
 * limit as soon as there are more than `limit`. 413 rather than 400: the body is well formed, it is larger (in parts)
 * than this server takes, as a body over `bodyLimit` is; a client can send fewer parts. Returns the boundary.
 */
export function checkPartCount(bytes: Uint8Array, contentType: string, limit: number): string {
  const boundary = boundaryOf(contentType)
  if (countParts(bytes, boundary, limit) > limit)
    throw new HttpError(413, `Multipart body has more than ${limit} parts (the limit is ${limit} parts)`)
  return boundary
}

function badType(why: string): HttpError {
  return new HttpError(400, `Malformed multipart Content-Type: ${why}`)
}
