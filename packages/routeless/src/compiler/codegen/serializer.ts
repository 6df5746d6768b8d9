/**
 * Return types compiled into JSON serializers (issue 22): the schema the analyser wrote for a handler's awaited return
 * type becomes, once at start-up, a function that writes the JSON of a value of that type without discovering its
 * shape again (what fast-json-stringify does from a hand-written schema, here from the type).
 *
 * The contract, as a handler's author sees it:
 * - **Nothing is dropped.** An object is written with the properties its type declares, in declaration order. One
 *   with more own keys than that carries a property its type does not declare (TypeScript lets a function return
 *   more than its type says): it is a mismatch, written whole by the fallback, so a client receives exactly what an
 *   untyped handler would send. An `undefined` optional property is left out, as `JSON.stringify` does. `x?: never`
 *   properties are never written by the serializer (a value holding one is a mismatch).
 * - **A value that does not match its type is not the serializer's to write.** When a value is not of the kind its
 *   type declares (a string where an object is declared, a missing required property, a string outside its enum,
 *   `NaN` or `Infinity` where a number is, an object with a `toJSON` where a plain object is declared, an invalid
 *   Date, a recursive value nested deeper than `MAX_DEPTH`), the whole value is written by the fallback instead
 *   (`JSON.stringify` unless another is given; the lifecycle should give its checked `stringify`, which throws an
 *   explained error for `NaN` and what JSON cannot hold, so that a typed handler fails as an untyped one does). So the
 *   output is valid JSON or an explained error, never half-written text; for such a value the undeclared properties
 *   are kept, as they were before serializers. Finer constraints (`@integer`, `@minimum`, `@pattern`, `@format`,
 *   lengths) are not checked here (`1.5` is written where an integer is declared): `checkReturn`, the development-mode
 *   check, reports them, and mismatches and undeclared properties too.
 * - **What gets a serializer.** Objects with declared properties, strings, numbers, booleans, `null`, nullable
 *   unions (`type: [..., 'null']`, `anyOf` with `{type: 'null'}`), unions whose members are of different JSON kinds,
 *   string/number/boolean enums and consts, arrays, `Record<string, T>` of a precise `T`, `Date` and named types
 *   (`$ref`, recursive ones included, with a depth guard). A `Date` is written as its `toJSON` writes it (the ISO
 *   string); another object with a `toJSON` (a Luxon or dayjs date) there has it called, and a string is taken as it
 *   is. A tuple is written when its length is the type's. A union of objects is written when a required property with
 *   fixed values tells its members apart (`{kind: 'a', …} | {kind: 'b', …}`). A part whose type says too little
 *   (`unknown`, `any`, other unions of objects, objects with both properties and an index signature, `File`) is
 *   written by the fallback, with all its own properties; `compileSerializer` answers `undefined` when the whole type
 *   is such a part (or an array of one), and the caller uses the fallback.
 * @module
 */
import type { HandlerTypes, JsonSchema } from '../../runtime/contract/manifest.ts'
import { schemaKey } from '../../runtime/contract/manifest.ts'
import { SerializerGenerator } from './serializer-code.ts'
import { serializedSchemas } from '../../runtime/contract/stream-item.ts'
import {
  SERIALIZER_PARAMETERS,
  serializerOf,
  type Serializer,
  type SerializerFactory,
} from '../../runtime/contract/serializer-runtime.ts'

export {
  MAX_DEPTH,
  SERIALIZER_PARAMETERS,
  serializerFor,
  type Serializer,
  type SerializerFactory,
} from '../../runtime/contract/serializer-runtime.ts'

/**
 * The body of the `SerializerFactory` of `schema` (a return type's schema, its `#/$defs/…` references resolved in
 * `defs`), or `undefined` when the type says too little for a serializer to help (the caller then uses the fallback).
 */
export function serializerSource(schema: JsonSchema, defs: Record<string, JsonSchema>): string | undefined {
  const generator = new SerializerGenerator(defs)
  const body = generator.value(schema, 'v', 'd')
  if (body === undefined || generator.precise === 0) return undefined
  return `${generator.functions.join('\n')}
return function serialize(value) {
  try {
    const v = value, d = 0
    let s = ''
    ${body}
    return s
  } catch (error) {
    if (error !== M) throw error
  }
  const out = fb(value)
  if (out === undefined) throw new TypeError('A handler returned a value that is not JSON: ' + typeof value)
  return out
}`
}

/**
 * Compiles a serializer for values of `schema`, or answers `undefined` when the type says too little for one to help
 * (see `serializerSource`). `fallback` writes what the serializer cannot: mismatching values, and the imprecise parts
 * of a precise type. `made`: the factories generated ahead of time, by `schemaKey` (`null`: no serializer helps).
 */
export function compileSerializer(
  schema: JsonSchema,
  defs: Record<string, JsonSchema>,
  fallback: (value: unknown) => string | undefined = JSON.stringify,
  made?: Record<string, SerializerFactory | null>,
): Serializer | undefined {
  const key = made && schemaKey(schema)
  let factory = key !== undefined && Object.hasOwn(made!, key) ? made![key] : undefined
  if (factory === null) return undefined
  factory ??= compileFactory(schema, defs)
  return factory && serializerOf(factory, fallback)
}

/** The factory of `schema` compiled with `new Function`, or undefined when no serializer helps. */
function compileFactory(schema: JsonSchema, defs: Record<string, JsonSchema>): SerializerFactory | undefined {
  const source = serializerSource(schema, defs)
  return source === undefined ? undefined : (new Function(...SERIALIZER_PARAMETERS, source) as SerializerFactory)
}

/**
 * The factory of every return type (and declared answer's body) of `handlers`, by `schemaKey` (`null`: none helps),
 * compiled at start-up: what the generated module holds, for validators that come without one (Ajv's,
 * `runtime/routing/route-table.ts`).
 */
export function compileSerializers(
  handlers: readonly HandlerTypes[],
  defs: Record<string, JsonSchema>,
): Record<string, SerializerFactory | null> {
  const out: Record<string, SerializerFactory | null> = {}
  for (const schema of handlers.flatMap((types) => serializedSchemas(types, defs))) {
    const key = schemaKey(schema)
    if (!Object.hasOwn(out, key)) out[key] = compileFactory(schema, defs) ?? null
  }
  return out
}
