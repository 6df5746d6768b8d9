/**
 * Strings handed to uWS as bytes, each encoded once. uWS copies every JavaScript string it is given (a header's name
 * or value, a status line) into UTF-8 it allocates and frees for that one call (V8's `String::Utf8Value`: ~500
 * instructions and a `malloc`), where bytes are read in place. The strings an answer writes again and again (header
 * names, media types, status lines) and the header names a request is asked for are few: each is encoded the first
 * time and kept, in an `ArrayBuffer` of its own: uWS reads one with a single call into V8, where a typed array (a
 * `Buffer`) takes three more to find its buffer, offset and length (~400 instructions over a request's five). (Only
 * uWS's native build reads bytes so; its JavaScript fallback, which `loadUws` refuses, would not.)
 * @module
 */

const kept = new Map<string, ArrayBuffer>()
const encoder = /* @__PURE__ */ new TextEncoder()

/** Most strings kept: names and media types are few; past it (a program making up names), a string goes as it is. */
const MOST = 1000
/**
 * Longest string kept. A media type may come from a client (an uploaded `File`'s `type`, answered back): with no bound
 * on its length, a thousand of them could hold a body limit's worth of memory each for the life of the process.
 */
const LONGEST = 100

/** `text` as UTF-8 bytes, encoded on first use; the string itself when long, or once `MOST` others are kept. */
export function bytesOf(text: string): ArrayBuffer | string {
  const bytes = kept.get(text)
  if (bytes !== undefined) return bytes
  if (kept.size >= MOST || text.length > LONGEST) return text
  const made = encodedOnce(text)
  kept.set(text, made)
  return made
}

/** `text` in UTF-8, in an `ArrayBuffer` of its own (`TextEncoder` makes one of the exact length). */
export function encodedOnce(text: string): ArrayBuffer {
  return encoder.encode(text).buffer as ArrayBuffer
}
