/**
 * Ajv in the document's own dialect (JSON Schema 2020-12, as OpenAPI 3.1 says): every schema of the document is
 * checked with its `$ref`s resolved against the document's components.
 */
import { Ajv2020, type ValidateFunction } from 'ajv/dist/2020.js'
import addFormatsModule from 'ajv-formats'
import type { OpenApiDocument, Schema } from './document.ts'

const BASE = 'urn:contract:document'
const addFormats = ((addFormatsModule as unknown as { default?: typeof addFormatsModule }).default ??
  addFormatsModule) as unknown as (ajv: Ajv2020) => void

export class Validator {
  private readonly ajv: Ajv2020
  private readonly compiled = new WeakMap<object, ValidateFunction>()

  constructor(doc: OpenApiDocument) {
    this.ajv = new Ajv2020({ strict: false, allErrors: false, validateFormats: true })
    addFormats(this.ajv)
    // OpenAPI's own formats for file parts and sized numbers: any value of the right type.
    for (const format of ['binary', 'byte', 'int32', 'int64', 'float', 'double', 'password'])
      this.ajv.addFormat(format, true)
    this.ajv.addSchema({ $id: BASE, components: doc.components ?? {} })
  }

  /** Whether `value` is valid against `schema` (a schema object of the document, `$ref`s and all). */
  valid(schema: Schema, value: unknown): boolean {
    return this.compile(schema)(value)
  }

  /** The first error, in words (empty when valid). */
  explain(schema: Schema, value: unknown): string {
    const validate = this.compile(schema)
    if (validate(value)) return ''
    const error = validate.errors?.[0]
    return error ? `${error.instancePath || '(root)'} ${error.message} (${error.schemaPath})` : 'invalid'
  }

  private compile(schema: Schema): ValidateFunction {
    if (typeof schema === 'boolean') return this.ajv.compile(schema)
    let validate = this.compiled.get(schema)
    if (!validate) {
      validate = this.ajv.compile(rebase(schema) as object)
      this.compiled.set(schema, validate)
    }
    return validate
  }
}

/** A copy whose local `$ref`s point into the document added under BASE. */
function rebase(schema: unknown): unknown {
  if (Array.isArray(schema)) return schema.map(rebase)
  if (schema === null || typeof schema !== 'object') return schema
  return Object.fromEntries(
    Object.entries(schema).map(([key, value]) => [
      key,
      key === '$ref' && typeof value === 'string' && value.startsWith('#') ? BASE + value : rebase(value),
    ]),
  )
}
