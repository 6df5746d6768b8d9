/**
 * The generator of handler-type validators: every schema a handler's binder checks, as the source of one function
 * `create(rt)` that returns them by schema key. Ajv writes each validator (its standalone code: the very source it
 * would evaluate at start-up, so the 400s keep Ajv's errors and their wording); this module gathers the schemas,
 * points the code's imports at the runtime helpers (`runtime/handlers/generated-validators.ts`) and refuses code that
 * would need anything else.
 * Loaded by `routeless build` and by start-up without a fresh build; the ahead-of-time path never loads it (nor Ajv).
 * @module
 */
import standaloneModule from 'ajv/dist/standalone/index.js'
import { createAjv, relink } from './ajv.ts'
import type { HandlerTypes, JsonSchema } from '../../runtime/contract/manifest.ts'
import { dateReviver } from '../../runtime/contract/dates.ts'
import { planTypedBinder } from '../../runtime/contract/typed-binder.ts'
import { derefIn, schemaKey, type ValidateFunction, type Validators } from '../../runtime/contract/validators.ts'

const standaloneCode = ((standaloneModule as unknown as { default?: typeof standaloneModule }).default ??
  standaloneModule) as unknown as (ajv: unknown, refs: Record<string, string>) => string

/** The run-time helpers Ajv's code may import, and what the generated code calls instead. */
const HELPERS: Record<string, string> = {
  'ajv/dist/runtime/ucs2length': 'rt.ucs2length',
  'ajv/dist/runtime/equal': 'rt.equal',
}

/**
 * Every schema the binders of `handlers` ask a validator for (and the messages their sockets receive), in a
 * stable order, without duplicates: found by building each binder against validators that only take note.
 */
export function schemasOf(handlers: Iterable<HandlerTypes>, defs: Record<string, JsonSchema>): JsonSchema[] {
  const seen = new Map<string, JsonSchema>()
  const noting: Validators = {
    origin: 'evaluated',
    defs,
    validator(schema) {
      seen.set(schemaKey(schema), schema)
      return (() => true) as unknown as ValidateFunction
    },
    deref: (schema) => derefIn(defs, schema),
  }
  for (const types of handlers) {
    try {
      planTypedBinder(types, noting, dateReviver)
    } catch {
      // A handler whose types cannot be bound is bound unchecked (start-up warns); it has no validators.
    }
    // A WebSocket's incoming messages (`runtime/lifecycle/typed-socket.ts`).
    if (types.socket?.receives) noting.validator(types.socket.receives)
  }
  return [...seen.keys()].sort().map((key) => seen.get(key)!)
}

/**
 * Statements (in `function create(rt)`) that make Ajv's validators of `schemas` and end with
 * `const validators = { [schemaKey]: validate }`. `rt` is `runtime/handlers/generated-validators.ts`'s `VALIDATOR_HELPERS`.
 */
export function validatorsSource(schemas: JsonSchema[], defs: Record<string, JsonSchema>): string {
  if (schemas.length === 0) return 'const validators = {}'
  const ajv = createAjv(defs, true)
  const refs: Record<string, string> = {}
  schemas.forEach((schema, i) => {
    ajv.addSchema({ ...relink(schema), $id: `routeless:v${i}` })
    refs[`v${i}`] = `routeless:v${i}`
  })
  const code = standaloneCode(ajv, refs).replace(/require\("([^"]+)"\)\.default/g, (_, module: string) => {
    const helper = HELPERS[module]
    if (!helper) throw new Error(`A generated validator needs ${module}, which routeless does not provide`)
    return helper
  })
  if (/\brequire\(/.test(code)) throw new Error('A generated validator needs a module routeless does not provide')
  const table = schemas.map((schema, i) => `  ${JSON.stringify(schemaKey(schema))}: exports.v${i},`)
  return [
    '"use strict"',
    'const exports = {}, formats = rt.formats',
    code.replace(/^"use strict";/, ''),
    `const validators = {\n${table.join('\n')}\n}`,
  ].join('\n')
}
