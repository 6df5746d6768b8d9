/**
 * Ajv as routeless configures it for handler types: the 2020-12 dialect, no coercion (the binders coerce), formats
 * from `formats.ts`, and the `x-js` keyword (a `File` is a multipart part). Loaded only where validators are compiled
 * at start-up (development, tests, `checkReturns`) or generated (`routeless build`); never on the ahead-of-time path.
 * @module
 */
import { _, type KeywordCxt } from 'ajv'
import { Ajv2020 } from 'ajv/dist/2020.js'
import addFormatsModule from 'ajv-formats'
import type { ValidateFunction } from 'ajv'
import { FORMATS } from '../../runtime/contract/formats.ts'
import { JS_MARK, type JsonSchema, type Manifest } from '../../runtime/contract/manifest.ts'
import { compileSerializers } from './serializer.ts'
import { derefIn, schemaKey, type Validators } from '../../runtime/contract/validators.ts'

const addFormats = ((addFormatsModule as unknown as { default?: typeof addFormatsModule }).default ??
  addFormatsModule) as unknown as (ajv: Ajv2020) => void

/** Where the named types live for Ajv: `#/$defs/X` in a handler's schema becomes `routeless:defs#/$defs/X`. */
export const DEFS_ID = 'routeless:defs'

/**
 * An Ajv instance with the named types added. `source`: keep each validator's source and refer to the function
 * formats as `formats[name]` (the generated module binds `formats` to `FORMATS`), for `standaloneCode`.
 */
export function createAjv(defs: Record<string, JsonSchema>, source = false): Ajv2020 {
  const ajv = new Ajv2020({
    strict: false,
    // `number` and `integer` refuse NaN and ±Infinity (`strict: false` would let them through: `!(x % 1)` holds for
    // Infinity); a JSON body cannot carry them, and a value from elsewhere must not reach the handler either.
    strictNumbers: true,
    allErrors: false,
    coerceTypes: false,
    useDefaults: false,
    validateFormats: true,
    // Not checked against JSON Schema's meta-schema (compiling that took 60–190 ms of every start without a build): the
    // schemas are the analysis's own, and Ajv still refuses a malformed one as it compiles it (`type must be JSONType
    // or JSONType[]: 5`, `required value must be ["array"]`), a hand-edited manifest's too.
    validateSchema: false,
    code: source ? { source: true, lines: false, formats: _`formats` } : undefined,
  })
  // The formats that are one regular expression (written into the validators as literals), then this module's own.
  addFormats(ajv)
  for (const [name, check] of Object.entries(FORMATS)) ajv.addFormat(name, check as never)
  // `File`/`Blob` in a signature: a multipart part, nothing a JSON body can send. (`Date` is a marked string.)
  ajv.addKeyword({
    keyword: JS_MARK,
    schemaType: 'string',
    code(cxt: KeywordCxt) {
      if (cxt.schema === 'File') cxt.fail(_`!(${cxt.data} instanceof Blob)`)
    },
  })
  ajv.addSchema({ $id: DEFS_ID, $defs: defs })
  return ajv
}

/** Validators compiled by Ajv at start-up (`new Function`), shared by every handler of a route table. */
export class TypeValidators implements Validators {
  private readonly ajv: Ajv2020
  private readonly cache = new Map<string, ValidateFunction>()
  readonly origin = 'ajv' as const

  constructor(readonly defs: Record<string, JsonSchema>) {
    this.ajv = createAjv(defs)
  }

  validator(schema: JsonSchema): ValidateFunction {
    const key = schemaKey(schema)
    let fn = this.cache.get(key)
    if (!fn) this.cache.set(key, (fn = this.ajv.compile(relink(schema))))
    return fn
  }

  deref(schema: JsonSchema): JsonSchema {
    return derefIn(this.defs, schema)
  }
}

/** `schema` with its `#/$defs/…` references pointed at the named types Ajv holds. */
export function relink(schema: unknown): any {
  if (Array.isArray(schema)) return schema.map(relink)
  if (typeof schema !== 'object' || schema === null) return schema
  const out: Record<string, unknown> = {}
  for (const [k, v] of Object.entries(schema))
    out[k] = k === '$ref' && typeof v === 'string' && v.startsWith('#/$defs/') ? `${DEFS_ID}${v}` : relink(v)
  return out
}

/** Ajv's validators, compiled at start-up, and the return types' serializers beside them (`new Function` both). */
export function ajvValidators(manifest: Manifest): Promise<Validators> {
  const serializers = compileSerializers(Object.values(manifest.handlers), manifest.$defs)
  return Promise.resolve(Object.assign(new TypeValidators(manifest.$defs), { serializers }))
}
