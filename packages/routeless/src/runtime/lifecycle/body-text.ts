/**
 * A body's bytes as text, and as JSON that loses no value: UTF-8 that is not is a 400, and so is a number beyond a
 * double's range, which `JSON.parse` would read as ±Infinity.
 * @module
 */
import { HttpError } from '../base/errors.ts'

/** Decoders are stateless when not streaming: one serves every request (marked pure: a Worker reading no body keeps none). */
const UTF8 = /* @__PURE__ */ new TextDecoder('utf-8', { fatal: true })
const LENIENT = /* @__PURE__ */ new TextDecoder('utf-8')

/**
 * `bytes` as UTF-8 text, throwing on an invalid sequence as the fatal decoder does. The lenient decoder is the fast
 * one (Deno's fatal one costs four times as much); it marks every invalid sequence with U+FFFD, so only a text that
 * has one is decoded again, strictly: a valid body may carry U+FFFD itself. Text that is not UTF-8 is a 400 naming the
 * body's kind (`Malformed JSON body: not UTF-8`).
 */
export function utf8(bytes: Uint8Array, kind: 'JSON' | 'form'): string {
  const text = LENIENT.decode(bytes)
  if (!text.includes('\uFFFD')) return text
  try {
    return UTF8.decode(bytes)
  } catch {
    throw new HttpError(400, `Malformed ${kind} body: not UTF-8`)
  }
}

export function parseJson(bytes: Uint8Array): unknown {
  const text = utf8(bytes, 'JSON')
  try {
    // JSON.parse reads a number beyond a double (`1e999`, 309 digits) as ±Infinity, which no handler can answer with
    // and no JSON can carry back. A text that may hold one is read with a reviver that refuses it.
    return mayOverflow(text) ? JSON.parse(text, finite) : JSON.parse(text)
  } catch (error) {
    throw new HttpError(400, `Malformed JSON body: ${(error as Error).message}`)
  }
}

/**
 * Whether a JSON text may hold a number beyond a double. Its value is ≥ 10³⁰⁸, so its integer digits and its exponent
 * add up to 309 or more: it has an exponent of three digits or more (`1e999`, `1.8E+308`, `5e0400`), or, with an
 * exponent of two digits at most, an integer part of 210 digits or more (`1` and 250 zeros `e99`, or 309 digits). A
 * text with neither holds none. (The test before, `\d[eE]\+?\d` or 309 digits, also sent every short exponent such as
 * `2e5` to the reviver, and its scan cost 4.4k instructions in the echo benchmark's profile where this one costs 2.6k.)
 */
export function mayOverflow(text: string): boolean {
  return LONG_EXPONENT.test(text) || hasDigitRun(text, 210)
}

/** A digit, `e` or `E`, then three digits or `+` and two: a false alarm on `1e+99` only costs the reviver. */
const LONG_EXPONENT = /\d[eE][+\d]\d\d/

/**
 * Whether `text` holds `length` digits in a row. Such a run covers one index of any `length` consecutive ones, so only
 * every `length`-th character is looked at, and the run measured where it is a digit: a few probes for a 1 KiB body
 * where a regular expression tried every position (7k instructions).
 */
function hasDigitRun(text: string, length: number): boolean {
  const n = text.length
  for (let k = length - 1; k < n; k += length) {
    if (!isDigit(text.charCodeAt(k))) continue
    let start = k
    while (start > 0 && isDigit(text.charCodeAt(start - 1))) start--
    let end = k + 1
    while (end < n && isDigit(text.charCodeAt(end))) end++
    if (end - start >= length) return true
  }
  return false
}

function isDigit(c: number): boolean {
  return c >= 0x30 && c <= 0x39
}

function finite(key: string, value: unknown): unknown {
  if (typeof value === 'number' && !Number.isFinite(value))
    throw new Error(`the number at ${key ? JSON.stringify(key) : 'the top'} is beyond a double's range`)
  return value
}
