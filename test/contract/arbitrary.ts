/**
 * Values a schema accepts, as fast-check arbitraries. Drawn from the flattened schema (`$ref`/`allOf` folded); each
 * request built from them is still checked against the document with Ajv before it is sent (`wire.ts`), so a value
 * this module gets wrong is dropped, never reported.
 */
import fc from 'fast-check'
import { flatten, type OpenApiDocument, type Schema } from './document.ts'

/** A file part's content (`format: binary`): bytes, told apart from a string when the request is encoded. */
export class FileBytes {
  constructor(readonly bytes: Uint8Array) {}
}

const MAX_DEPTH = 5
const dates = fc.date({ noInvalidDate: true, min: new Date('1970-01-01'), max: new Date('2199-12-31') })
const INT_RANGE = 1_000_000

export function valid(doc: OpenApiDocument, schema: Schema, depth = 0): fc.Arbitrary<unknown> {
  const s = flatten(doc, schema)
  if (s === false) return fc.constant(undefined)
  if (s === true) return anyJson(depth)
  if ('const' in s) return fc.constant(s.const)
  if (Array.isArray(s.enum)) return fc.constantFrom(...s.enum)
  const branches: Schema[] | undefined = s.anyOf ?? s.oneOf
  if (Array.isArray(branches)) {
    const { anyOf: _a, oneOf: _o, ...rest } = s
    const arbs = branches.map((b) =>
      valid(doc, Object.keys(rest).some(isAssertion) ? { allOf: [rest, b] } : b, depth + 1),
    )
    return fc.oneof(...arbs)
  }
  const types: string[] = s.type ? (Array.isArray(s.type) ? s.type : [s.type]) : implied(s)
  if (types.length === 0) return anyJson(depth)
  return fc.oneof(...types.map((type) => ofType(doc, s, type, depth)))
}

function isAssertion(key: string): boolean {
  return !['description', 'title', 'example', 'examples', 'default', 'deprecated', 'readOnly', 'writeOnly'].includes(
    key,
  )
}

function implied(s: Record<string, any>): string[] {
  if (s.properties || s.additionalProperties !== undefined || s.required) return ['object']
  if (s.items) return ['array']
  if (s.pattern || s.minLength !== undefined || s.maxLength !== undefined || s.format) return ['string']
  if (s.minimum !== undefined || s.maximum !== undefined) return ['number']
  return []
}

function ofType(doc: OpenApiDocument, s: Record<string, any>, type: string, depth: number): fc.Arbitrary<unknown> {
  switch (type) {
    case 'null':
      return fc.constant(null)
    case 'boolean':
      return fc.boolean()
    case 'integer':
      return fc.integer({ min: bound(s.minimum, -INT_RANGE), max: bound(s.maximum, INT_RANGE) })
    case 'number':
      return fc.oneof(
        fc.integer({ min: bound(s.minimum, -INT_RANGE), max: bound(s.maximum, INT_RANGE) }),
        fc.double({
          min: s.minimum ?? -INT_RANGE,
          max: s.maximum ?? INT_RANGE,
          noNaN: true,
          noDefaultInfinity: true,
        }),
      )
    case 'string':
      return string(s)
    case 'array':
      return array(doc, s, depth)
    case 'object':
      return object(doc, s, depth)
    default:
      return anyJson(depth)
  }
}

function bound(value: number | undefined, fallback: number): number {
  return value === undefined ? fallback : Math.max(-Number.MAX_SAFE_INTEGER, Math.min(Number.MAX_SAFE_INTEGER, value))
}

/** Strings by format, else by pattern, else printable and any Unicode; lengths in code points, as Ajv counts them. */
export function string(s: Record<string, any>): fc.Arbitrary<unknown> {
  const min = s.minLength ?? 0
  const max = s.maxLength ?? Infinity
  const fits = (text: string) => {
    const n = [...text].length
    return n >= min && n <= max
  }
  if (s.format === 'binary') return fc.uint8Array({ maxLength: 64 }).map((b) => new FileBytes(b))
  let base: fc.Arbitrary<string>
  if (s.format === 'date-time') base = dates.map((d) => d.toISOString())
  else if (s.format === 'date') base = dates.map((d) => d.toISOString().slice(0, 10))
  else if (s.format === 'uuid') base = fc.uuid()
  else if (s.format === 'email') base = fc.emailAddress()
  else if (s.format === 'uri') base = fc.webUrl()
  else if (typeof s.pattern === 'string') base = fc.stringMatching(new RegExp(s.pattern, 'u'))
  else
    base = fc.oneof(
      fc.string({ minLength: min, maxLength: Math.min(max, min + 24) }),
      fc.string({ unit: 'grapheme', minLength: Math.min(min, 1), maxLength: Math.min(max, min + 12) }),
    )
  if (typeof s.pattern === 'string' && s.format) {
    const pattern = new RegExp(s.pattern, 'u')
    base = base.filter((text) => pattern.test(text))
  }
  return base.filter(fits)
}

function array(doc: OpenApiDocument, s: Record<string, any>, depth: number): fc.Arbitrary<unknown> {
  const minLength = s.minItems ?? 0
  const maxLength = Math.min(s.maxItems ?? Infinity, depth >= MAX_DEPTH ? minLength : minLength + 3)
  return fc.array(valid(doc, s.items ?? {}, depth + 1), { minLength, maxLength })
}

function object(doc: OpenApiDocument, s: Record<string, any>, depth: number): fc.Arbitrary<unknown> {
  const required = new Set<string>(s.required ?? [])
  const properties: Record<string, fc.Arbitrary<unknown>> = {}
  for (const [name, sub] of Object.entries<Schema>(s.properties ?? {})) {
    // `not: {}`: the property must be absent.
    const flat = flatten(doc, sub)
    if (typeof flat === 'object' && flat.not && Object.keys(flat.not).length === 0) continue
    if (depth >= MAX_DEPTH && !required.has(name)) continue
    properties[name] = valid(doc, sub, depth + 1)
  }
  for (const name of required) properties[name] ??= anyJson(depth + 1)
  let arb: fc.Arbitrary<Record<string, unknown>> = fc.record(properties, { requiredKeys: [...required] })
  const extra = s.additionalProperties
  if (!s.properties && extra !== undefined && extra !== false && depth < MAX_DEPTH) {
    const values = extra === true ? anyJson(depth + 1) : valid(doc, extra, depth + 1)
    arb = fc
      .tuple(arb, fc.dictionary(fc.string({ minLength: 1, maxLength: 8 }), values, { maxKeys: 3 }))
      .map(([known, more]) => ({ ...more, ...known }))
  }
  const minProperties = s.minProperties ?? 0
  const maxProperties = s.maxProperties ?? Infinity
  return arb.filter((o) => {
    const n = Object.keys(o).length
    return n >= minProperties && n <= maxProperties
  })
}

function anyJson(depth: number): fc.Arbitrary<unknown> {
  return depth >= MAX_DEPTH ? fc.oneof(fc.string(), fc.integer(), fc.boolean()) : fc.jsonValue({ maxDepth: 2 })
}
