/**
 * What a compiled serializer calls (`serializer.ts` writes its source): the mismatch marker, JSON strings and Dates
 * written fast, the depth guard. A serializer's factory, evaluated at start-up or written into a bundle by
 * `routeless build` (a Worker evaluates no code from strings), becomes a serializer here.
 * @module
 */

/** Writes a value as JSON text. */
export type Serializer = (value: unknown) => string

/** How deep named types may nest in one value (recursive types): deeper, the value is the fallback's (a cycle?). */
export const MAX_DEPTH = 200

/** The parameters of a serializer's factory, in order. */
export const FACTORY_PARAMS = ['M', 'fb', 'str', 'iso', 'MAX_DEPTH', 'DJ'] as const

/** A serializer's factory: its source's function, called with what `FACTORY_PARAMS` name. */
export type SerializerFactory = (...args: unknown[]) => Serializer

/** Thrown by generated code at a mismatch, caught by the serializer's entry point: never escapes. */
const MISMATCH: unique symbol = Symbol('routeless.serializer.mismatch')

/** The serializer `factory` makes, writing with `fallback` what it cannot. */
export function instantiate(factory: SerializerFactory, fallback: (value: unknown) => string | undefined): Serializer {
  return factory(MISMATCH, fallback, str, iso, MAX_DEPTH, Date.prototype.toJSON)
}

/** A string as JSON: short strings with nothing to escape without `JSON.stringify`. */
function str(text: string): string {
  if (text.length > 40) return JSON.stringify(text)
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i)
    // Control characters, `"`, `\` and surrogates (a lone one is escaped by JSON.stringify) need JSON.stringify.
    if (c < 32 || c === 34 || c === 92 || (c >= 0xd800 && c <= 0xdfff)) return JSON.stringify(text)
  }
  return `"${text}"`
}

/**
 * A Date as JSON, as `toJSON` writes it (`"2024-01-31T09:05:00.000Z"`), or undefined for an invalid one (which
 * `toJSON` makes `null`). Put together from the UTC fields: `toISOString` costs about three times as much.
 */
function iso(date: Date): string | undefined {
  const year = date.getUTCFullYear()
  if (Number.isNaN(year)) return undefined
  if (year < 1000 || year > 9999) return `"${date.toISOString()}"` // signed six-digit years, zero-padded ones
  const ms = date.getUTCMilliseconds()
  return `"${year}-${two(date.getUTCMonth() + 1)}-${two(date.getUTCDate())}T${two(date.getUTCHours())}:${two(
    date.getUTCMinutes(),
  )}:${two(date.getUTCSeconds())}.${ms < 100 ? (ms < 10 ? '00' : '0') : ''}${ms}Z"`
}

function two(n: number): string {
  return n < 10 ? `0${n}` : `${n}`
}
