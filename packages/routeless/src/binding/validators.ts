/**
 * The compiled validators of handler types: one Ajv instance per set of named types, shared by every handler.
 * @module
 */
import { Ajv2020 } from 'ajv/dist/2020.js'
import addFormatsModule from 'ajv-formats'
import type { ValidateFunction } from 'ajv'
import { JS_MARK, type JsonSchema } from './manifest.ts'
import type { ParamIssue } from './standard-schema.ts'

const addFormats = ((addFormatsModule as unknown as { default?: typeof addFormatsModule }).default ??
  addFormatsModule) as unknown as (ajv: Ajv2020) => void

/** One Ajv instance per set of named types (`$defs`), compiled validators shared by every handler. */
export class TypeValidators {
  private readonly ajv: Ajv2020
  private readonly cache = new Map<string, ValidateFunction>()

  constructor(readonly defs: Record<string, JsonSchema>) {
    this.ajv = new Ajv2020({
      strict: false,
      allErrors: false,
      coerceTypes: false,
      useDefaults: false,
      validateFormats: true,
    })
    addFormats(this.ajv)
    // `File`/`Blob` in a signature: a multipart part, nothing a JSON body can send. (`Date` is a marked string.)
    this.ajv.addKeyword({
      keyword: JS_MARK,
      schemaType: 'string',
      errors: false,
      validate: (kind: string, data: unknown) => kind !== 'File' || data instanceof Blob,
    })
    this.ajv.addSchema({ $id: 'routeless:defs', $defs: defs })
  }

  /** The compiled validator of `schema` (its `#/$defs/…` references resolve against the named types). */
  compile(schema: JsonSchema): ValidateFunction {
    const key = JSON.stringify(schema)
    let fn = this.cache.get(key)
    if (!fn) this.cache.set(key, (fn = this.ajv.compile(relink(schema))))
    return fn
  }

  /** `schema`, or the named type it refers to. */
  deref(schema: JsonSchema): JsonSchema {
    for (let i = 0; i < 32 && typeof schema.$ref === 'string' && schema.$ref.startsWith('#/$defs/'); i++)
      schema = this.defs[schema.$ref.slice(8)] ?? {}
    return schema
  }
}

function relink(schema: unknown): any {
  if (Array.isArray(schema)) return schema.map(relink)
  if (typeof schema !== 'object' || schema === null) return schema
  const out: Record<string, unknown> = {}
  for (const [k, v] of Object.entries(schema))
    out[k] = k === '$ref' && typeof v === 'string' && v.startsWith('#/$defs/') ? `routeless:defs${v}` : relink(v)
  return out
}

export type Fail = (name: string, reason: string, kind?: ParamIssue['kind'], own?: boolean) => void
