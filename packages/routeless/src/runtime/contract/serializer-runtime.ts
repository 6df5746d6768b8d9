/**
 * A return type's serializer at run time: the factory generated for it (`serializer.ts`'s `serializerSource`, written
 * into `.routeless/app.mjs` or evaluated at start-up) given its helpers. Compiles nothing, so a Worker bundle carries
 * this file and not the generator (`compiler/codegen/serializer-code.ts`).
 * @module
 */
import { schemaKey, type JsonSchema } from './manifest.ts'

/**
 * The generated part of a serializer: given the mismatch marker, the fallback and the helpers, it returns the
 * serializer. `routeless build` writes one per return type into the generated module (`codegen/`); start-up makes
 * the same from `serializerSource` when there is none.
 */
export type SerializerFactory = (
  M: symbol,
  fb: (value: unknown) => string | undefined,
  str: (text: string) => string,
  iso: (date: Date) => string | undefined,
  maxDepth: number,
  DJ: () => string,
) => (value: unknown) => string

/** Writes a value as JSON text. */
export type Serializer = (value: unknown) => string

/** How deep named types may nest in one value (recursive types): deeper, the value is the fallback's (a cycle?). */
export const MAX_DEPTH = 200

/** The parameters of a `SerializerFactory`'s source, in order. */
export const SERIALIZER_PARAMETERS = ['M', 'fb', 'str', 'iso', 'MAX_DEPTH', 'DJ'] as const

/** Thrown by generated code at a mismatch, caught by the serializer's entry point: never escapes. */
const MISMATCH: unique symbol = Symbol('routeless.serializer.mismatch')

/**
 * The serializer of return type `schema` from `made`, the factories generated for every return type of the manifest
 * (by `schemaKey`), or `undefined` when none helps (`null`: the type says too little) or none was made: the caller
 * then writes with the fallback. `fallback` writes what the serializer cannot (mismatching values, imprecise parts).
 */
export function serializerFor(
  schema: JsonSchema,
  fallback: (value: unknown) => string | undefined,
  made: Record<string, SerializerFactory | null> | undefined,
): Serializer | undefined {
  const key = made && schemaKey(schema)
  const factory = key !== undefined && Object.hasOwn(made!, key) ? made![key] : undefined
  return factory ? serializerOf(factory, fallback) : undefined
}

/** The serializer a factory makes, given the helpers. */
export function serializerOf(
  factory: SerializerFactory,
  fallback: (value: unknown) => string | undefined = JSON.stringify,
): Serializer {
  return factory(MISMATCH, fallback, str, iso, MAX_DEPTH, Date.prototype.toJSON as () => string)
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
