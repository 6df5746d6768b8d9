/**
 * A request as it goes on the wire, built from generated values: path, query and header parameters as strings, and
 * the body as JSON text, form fields or multipart parts. `conforms` reads such a request back the way a server of
 * this document must (strings to the numbers or booleans the schema asks for, repeated fields to arrays, JSON parts
 * parsed) and checks it against the document with Ajv: a request is sent as valid or as invalid only when it is.
 */
import { FileBytes } from './arbitrary.ts'
import { flatten, type MediaType, type OpenApiDocument, type Operation, type Schema, typesOf } from './document.ts'
import type { Validator } from './validator.ts'

/** The generated, typed parts of a request. */
export interface Draft {
  path: Record<string, unknown>
  query: Record<string, unknown>
  header: Record<string, unknown>
  body?: { media: MediaType; value: unknown }
}

export interface Part {
  name: string
  value: string
  kind: 'text' | 'json' | 'file'
  bytes?: Uint8Array
}

export interface WireRequest {
  method: string
  pathParams: Record<string, string>
  query: Array<[string, string]>
  headers: Record<string, string>
  body?: { type: string; json?: string; fields?: Part[] }
}

/** The request on the wire, or undefined when the values cannot be written there (e.g. a path segment `..`). */
export function encode(op: Operation, draft: Draft): WireRequest | undefined {
  const pathParams: Record<string, string> = {}
  for (const [name, value] of Object.entries(draft.path)) {
    const [text, ...more] = scalars(value)
    if (text === undefined || more.length > 0 || text === '' || text === '.' || text === '..') return undefined
    // A value holding "/" or "\\" is sent encoded (`/glossaries/a%2Fb`): routeless refuses it with a 404 in the format of
    // the handler it would reach, before any guard runs. Left out unless CONTRACT_SLASHES=1 (see known-failures.ts).
    if (!process.env.CONTRACT_SLASHES && /[/\\]/.test(text)) return undefined
    pathParams[name] = text
  }
  const query: Array<[string, string]> = []
  for (const [name, value] of Object.entries(draft.query)) for (const text of scalars(value)) query.push([name, text])
  const headers: Record<string, string> = {}
  for (const [name, value] of Object.entries(draft.header)) {
    const [text, ...more] = scalars(value)
    if (text === undefined) continue
    if (more.length > 0 || !/^[\x21-\x7e]([\x20-\x7e]*[\x21-\x7e])?$/.test(text)) return undefined
    headers[name] = text
  }
  const wire: WireRequest = { method: op.method, pathParams, query, headers }
  if (draft.body) {
    const { media, value } = draft.body
    if (isJson(media.type)) wire.body = { type: media.type, json: JSON.stringify(value) }
    else {
      if (value === null || typeof value !== 'object' || Array.isArray(value)) return undefined
      const fields = fieldsOf(value as Record<string, unknown>, media)
      if (!fields) return undefined
      wire.body = { type: media.type, fields }
    }
  }
  return wire
}

function scalars(value: unknown): string[] {
  if (value === undefined || value === null) return []
  if (Array.isArray(value)) return value.flatMap((item) => (item === null || item === undefined ? [] : [text(item)]))
  return [text(value)]
}

function text(value: unknown): string {
  return typeof value === 'object' ? JSON.stringify(value) : String(value)
}

function fieldsOf(value: Record<string, unknown>, media: MediaType): Part[] | undefined {
  const multipart = media.type.startsWith('multipart/')
  const parts: Part[] = []
  for (const [name, v] of Object.entries(value)) {
    if (v === undefined || v === null) continue
    const items = Array.isArray(v) && media.encoding[name] !== 'application/json' ? v : [v]
    for (const item of items) {
      if (item instanceof FileBytes) {
        if (!multipart) return undefined
        parts.push({ name, value: `<${item.bytes.length} bytes>`, kind: 'file', bytes: item.bytes })
      } else if (item !== null && typeof item === 'object') {
        parts.push({ name, value: JSON.stringify(item), kind: multipart ? 'json' : 'text' })
      } else if (item !== null && item !== undefined) parts.push({ name, value: String(item), kind: 'text' })
    }
  }
  return parts
}

export function isJson(type: string): boolean {
  return /^application\/([\w.-]+\+)?json$/i.test(type.split(';')[0]!.trim())
}

/** Whether the request, read back as the server must read it, satisfies the document; why not, if it does not. */
export function conforms(doc: OpenApiDocument, validator: Validator, op: Operation, wire: WireRequest): string {
  for (const p of op.parameters) {
    const strings =
      p.in === 'path'
        ? wire.pathParams[p.name] === undefined
          ? []
          : [wire.pathParams[p.name]!]
        : p.in === 'query'
          ? wire.query.filter(([n]) => n === p.name).map(([, v]) => v)
          : p.in === 'header'
            ? Object.entries(wire.headers)
                .filter(([n]) => n.toLowerCase() === p.name.toLowerCase())
                .map(([, v]) => v)
            : []
    if (p.in === 'cookie') continue
    if (strings.length === 0) {
      if (p.required) return `${p.in} parameter ${p.name} missing`
      continue
    }
    const value = readValues(doc, validator, p.schema, strings)
    const why = validator.explain(p.schema, value)
    if (why) return `${p.in} parameter ${p.name}: ${why}`
  }
  if (!wire.body) return op.body?.required ? 'request body missing' : ''
  const media = op.body?.media.find((m) => m.type === wire.body!.type)
  if (!media) return `request body of type ${wire.body.type} not documented`
  let value: unknown
  if (wire.body.json !== undefined) value = JSON.parse(wire.body.json)
  else value = readFields(doc, validator, media, wire.body.fields ?? [])
  const why = validator.explain(media.schema, value)
  return why ? `request body: ${why}` : ''
}

function readFields(doc: OpenApiDocument, validator: Validator, media: MediaType, fields: Part[]): unknown {
  const schema = flatten(doc, media.schema)
  const properties: Record<string, Schema> = typeof schema === 'object' ? (schema.properties ?? {}) : {}
  const extra: Schema =
    typeof schema === 'object' && typeof schema.additionalProperties === 'object' ? schema.additionalProperties : {}
  const grouped = new Map<string, Part[]>()
  for (const f of fields) grouped.set(f.name, [...(grouped.get(f.name) ?? []), f])
  const out: Record<string, unknown> = {}
  for (const [name, parts] of grouped) {
    const sub = properties[name] ?? extra
    const values = parts.map((part) =>
      part.kind === 'file' ? part.value : part.kind === 'json' ? JSON.parse(part.value) : part.value,
    )
    if (parts.every((part) => part.kind === 'text')) out[name] = readValues(doc, validator, sub, values as string[])
    else if (parts.length === 1 && parts[0]!.kind === 'json') out[name] = values[0]
    else out[name] = values.length === 1 && !typesOf(doc, sub).has('array') ? values[0] : values
  }
  return out
}

/** Strings of a parameter or form field as the typed value the schema asks for. */
function readValues(doc: OpenApiDocument, validator: Validator, schema: Schema, strings: string[]): unknown {
  const flat = flatten(doc, schema)
  const types = typesOf(doc, schema)
  if (types.has('array') && (strings.length > 1 || !types.has('string'))) {
    const items = typeof flat === 'object' && flat.items ? flat.items : {}
    return strings.map((s) => readScalar(validator, items, s))
  }
  if (strings.length > 1) return strings
  return readScalar(validator, schema, strings[0]!)
}

/** The first reading of the string the schema accepts: itself, a number, a boolean or JSON; else the string. */
function readScalar(validator: Validator, schema: Schema, s: string): unknown {
  const candidates: unknown[] = [s]
  if (/^-?\d+(\.\d+)?([eE][+-]?\d+)?$/.test(s)) candidates.push(Number(s))
  if (s === 'true' || s === 'false') candidates.push(s === 'true')
  if (/^[[{]/.test(s))
    try {
      candidates.push(JSON.parse(s))
    } catch {}
  return candidates.find((c) => validator.valid(schema, c)) ?? s
}
