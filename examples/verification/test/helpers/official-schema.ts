/**
 * Smile ID's official OpenAPI bundle (`shared/specs/openapi/smileid-v3-openapi.yaml`, beside the repository) as a
 * response validator.
 *
 * The bundle is OpenAPI 3.0.3, whose Schema Object is a dialect of JSON Schema with `nullable`. We lift it to
 * OpenAPI 3.1 in memory (`nullable: true` becomes `"null"` in `type`, and in `enum` where one is given), check the result with @seriousme/openapi-schema-validator's OpenAPI 3.1 schema, and compile
 * its schemas with Ajv's JSON Schema 2020-12 dialect — the dialect OpenAPI 3.1 Schema Objects are written in — plus
 * ajv-formats for `date-time`, `uri`, `uuid` and `email`. Nothing is loosened: `additionalProperties: false` and every
 * `required` stay as published.
 */
import { existsSync, readFileSync } from 'node:fs'
import { fileURLToPath } from 'node:url'
import { Validator } from '@seriousme/openapi-schema-validator'
import { Ajv2020, type ValidateFunction } from 'ajv/dist/2020.js'
import formats from 'ajv-formats'
import { parse } from 'yaml'

/** `SMILEID_OPENAPI` when set, else `shared/specs/openapi/` beside the repository (the bundle is not copied into it). */
export const SPEC_PATH =
  process.env.SMILEID_OPENAPI ??
  fileURLToPath(new URL('../../../../../shared/specs/openapi/smileid-v3-openapi.yaml', import.meta.url))
export const specPresent = existsSync(SPEC_PATH)

type Schema = Record<string, any>

/** `nullable` (3.0) to a `"null"` type (3.1), recursively, in place. */
function liftSchema(node: unknown): void {
  if (Array.isArray(node)) return node.forEach(liftSchema)
  if (typeof node !== 'object' || node === null) return
  const s = node as Schema
  for (const value of Object.values(s)) liftSchema(value)
  if (s.nullable === true) {
    if (typeof s.type === 'string') s.type = [s.type, 'null']
    else if (s.type === undefined) {
      const rest = { ...s }
      delete rest.nullable
      for (const key of Object.keys(s)) delete s[key]
      s.anyOf = [rest, { type: 'null' }]
    }
    if (Array.isArray(s.enum) && !s.enum.includes(null)) s.enum.push(null)
  }
  delete s.nullable
}

/** Walk every Schema Object of the document (components, parameters, bodies, responses, callbacks). */
function liftDocument(doc: Schema): Schema {
  const visit = (node: unknown): void => {
    if (Array.isArray(node)) return node.forEach(visit)
    if (typeof node !== 'object' || node === null) return
    for (const [key, value] of Object.entries(node as Schema)) {
      if (key === 'schema') liftSchema(value)
      else if (key === 'schemas') Object.values(value as Schema).forEach(liftSchema)
      else if (key !== 'example' && key !== 'examples') visit(value)
    }
  }
  visit(doc)
  doc.openapi = '3.1.0'
  return doc
}

export interface OfficialSchema {
  /** The original document (3.0.3), as parsed. */
  original: Schema
  /** The same document lifted to 3.1. */
  lifted: Schema
  /** Errors of both documents against their OpenAPI meta-schema (3.0 and 3.1): empty when both are valid. */
  documentErrors: unknown[]
  /** The body schema the spec gives `method path` for `status`, or undefined when that status is not documented. */
  response(method: string, path: string, status: number): Schema | undefined
  /** The request body schema of the callback an operation declares. */
  callback(method: string, path: string, name: string): Schema
  /** A validator for a schema; `#/components/schemas/…` references resolve into the lifted document. */
  compile(schema: Schema): ValidateFunction
}

export async function loadOfficialSchema(): Promise<OfficialSchema> {
  const text = readFileSync(SPEC_PATH, 'utf8')
  const original = parse(text) as Schema
  const lifted = liftDocument(parse(text) as Schema)
  const v30 = await new Validator().validate(structuredClone(original))
  const v31 = await new Validator().validate(structuredClone(lifted))
  const documentErrors = [
    ...(v30.valid ? [] : [{ openapi: '3.0', errors: v30.errors }]),
    ...(v31.valid ? [] : [{ openapi: '3.1', errors: v31.errors }]),
  ]

  const ajv = new Ajv2020({ strict: true, allErrors: true, strictRequired: false })
  // A CommonJS module: its default export is the plugin under Node, `.default` under the TypeScript types.
  const addFormats = ((formats as unknown as { default?: typeof formats.default }).default ??
    formats) as unknown as typeof formats.default
  addFormats(ajv)
  // The OpenAPI 3.1 base vocabulary and the bundle's extensions are annotations, not assertions.
  ajv.addVocabulary(['discriminator', 'xml', 'externalDocs', 'example'])
  for (const key of new Set(text.match(/\bx-[a-z-]+(?=:)/g))) ajv.addKeyword(key)
  const cache = new Map<Schema, ValidateFunction>()

  const operation = (method: string, path: string) => {
    const op = lifted.paths[path]?.[method.toLowerCase()]
    if (!op) throw new Error(`the official spec has no ${method} ${path}`)
    return op
  }
  const rebase = (schema: Schema): Schema =>
    JSON.parse(JSON.stringify(schema).replaceAll('"#/components/schemas/', '"smileid.json#/$defs/'))
  ajv.addSchema({ $id: 'smileid.json', $defs: rebase(lifted.components.schemas) })

  return {
    original,
    lifted,
    documentErrors,
    response(method, path, status) {
      const res = operation(method, path).responses[String(status)]
      return res?.content?.['application/json']?.schema
    },
    callback(method, path, name) {
      const cb = operation(method, path).callbacks?.[name]
      if (!cb) throw new Error(`${method} ${path} declares no callback ${name}`)
      const [expression] = Object.values(cb) as Schema[]
      return expression!.post.requestBody.content['application/json'].schema
    },
    compile(schema) {
      const cached = cache.get(schema)
      if (cached) return cached
      const validate = ajv.compile(rebase(schema))
      cache.set(schema, validate)
      return validate
    },
  }
}
