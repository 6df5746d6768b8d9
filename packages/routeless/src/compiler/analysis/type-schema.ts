/**
 * Internal, loaded only with `analyze.ts`: turns a TypeScript type, as the checker resolves it, into JSON Schema
 * (draft 2020-12). Named interfaces and aliases of objects become `$defs` (`#/$defs/Name`, cycles included); JSDoc
 * tags (`@minimum`, `@maxLength`, `@pattern`, `@format email` …) on properties and aliases become constraints.
 * @module
 */
import { JS_MARK, JSON_MARK, type JsonSchema } from '../../runtime/contract/manifest.ts'
import { type Annotation, Kind, type Tags, type TypeHandle, type TypeReader } from './type-reader.ts'

/** A JSDoc constraint and the schema types it applies to. */
const NUMERIC_TAGS = ['minimum', 'maximum', 'exclusiveMinimum', 'exclusiveMaximum'] as const
const COUNT_TAGS = ['minLength', 'maxLength', 'minItems', 'maxItems', 'minProperties', 'maxProperties'] as const
const FORMATS = new Set(['date', 'date-time', 'time', 'email', 'uri', 'url', 'uuid', 'ipv4', 'ipv6', 'hostname'])

/** Classes whose instances no schema describes. */
const OPAQUE = new Set([
  'Map',
  'Set',
  'WeakMap',
  'WeakSet',
  'Promise',
  'RegExp',
  'Uint8Array',
  'ArrayBuffer',
  'Response',
  'Request',
  'ReadableStream',
])

/** A type the schema cannot express: the parameter falls back to untyped binding, with a warning. */
export class Unsupported extends Error {}

export class SchemaWriter {
  readonly defs: Record<string, JsonSchema> = {}
  private readonly named = new Map<TypeHandle, string>()
  private readonly taken = new Map<string, TypeHandle>()

  constructor(private readonly r: TypeReader) {}

  /** The schema of `type`. Throws `Unsupported`. */
  schema(type: TypeHandle, depth = 0): JsonSchema {
    const { r } = this
    if (depth > 40) throw new Unsupported('a type nested too deeply')
    const f = r.kind(type)
    if (f & (Kind.Any | Kind.Unknown)) return {}
    if (f & Kind.Never) return { not: {} }
    const constraints = this.aliasConstraints(type)
    const withConstraints = (s: JsonSchema) => (constraints ? applyConstraints(s, constraints) : s)
    if (f & Kind.String) return withConstraints({ type: 'string' })
    if (f & Kind.Number) return withConstraints({ type: 'number' })
    if (f & Kind.Boolean) return { type: 'boolean' }
    if (f & Kind.Null) return { type: 'null' }
    if (f & (Kind.StringLiteral | Kind.NumberLiteral | Kind.BooleanLiteral)) return { const: r.literal(type) }
    if (f & Kind.BigInt) throw new Unsupported('bigint')
    if (f & (Kind.Undefined | Kind.Void)) throw new Unsupported('undefined')
    if (f & Kind.Union) return withConstraints(this.union(r.members(type), depth))
    if (f & Kind.Object) {
      const name = r.symbolName(type)
      if (name === 'Date') return withConstraints({ type: 'string', format: 'date-time', [JS_MARK]: 'Date' })
      if (r.isArray(type)) {
        const [item] = r.typeArguments(type)
        return withConstraints({ type: 'array', items: item ? this.schema(item, depth + 1) : {} })
      }
      if (r.isTuple(type)) {
        const items = r.typeArguments(type).map((t) => this.schema(t, depth + 1))
        return { type: 'array', prefixItems: items, minItems: items.length, maxItems: items.length }
      }
      if (r.callable(type)) throw new Unsupported('a function')
      // An uploaded file (a multipart part): checked as a `Blob` by the binder, `format: binary` in OpenAPI.
      if (name === 'File' || name === 'Blob') return { [JS_MARK]: 'File' }
      if (name && OPAQUE.has(name)) throw new Unsupported(`a ${name}`)
      return this.object(type, depth)
    }
    if (f & Kind.Intersection) return this.object(type, depth)
    throw new Unsupported(r.text(type))
  }

  /** The schema of the union of `types` (an awaited union: `Promise<A> | B` gives `A | B`). */
  schemaOfUnion(types: TypeHandle[]): JsonSchema {
    return types.length === 1 ? this.schema(types[0]!) : this.union(types, 0)
  }

  /**
   * The schema of a declaration (a parameter, a property) of type `type`: as `schema`, plus the JSDoc constraints of
   * a type alias its annotation names (`/** @minimum 1 *\/ type Page = number` then `page: Page`): the checker does
   * not keep aliases of primitives on the type itself.
   */
  declared(annotation: (() => Annotation | undefined) | undefined, type: TypeHandle, depth = 0): JsonSchema {
    const schema = this.schema(type, depth)
    if (!annotation || this.r.alias(type)) return schema
    const node = annotation()
    return node ? this.aliasedAt(node, schema) : schema
  }

  /** `schema` with the JSDoc constraints of the aliases `node` names: `Page`, and the items of `Label[]`/`Array<Label>`. */
  private aliasedAt(node: Annotation, schema: JsonSchema): JsonSchema {
    if (node.kind === 'array')
      return schema.type === 'array' && schema.items && !schema.items.$ref
        ? { ...schema, items: this.aliasedAt(node.element, schema.items) }
        : schema
    if (node.kind === 'union') {
      // `Page | null`, `Page | undefined`: the alias's constraints on the member it makes (null keeps none).
      const members = node.members.filter((t) => t.kind !== 'null' && t.kind !== 'undefined')
      // (An `anyOf` takes each tag on the branches it fits: applyConstraints.)
      return members.length === 1 ? this.aliasedAt(members[0]!, schema) : schema
    }
    if (node.kind !== 'ref' || schema.$ref) return schema
    const alias = node.alias()
    if (!alias) return schema
    return Object.keys(alias.tags).length ? applyConstraints(schema, alias.tags, `type ${alias.name}`) : schema
  }

  private union(types: TypeHandle[], depth: number): JsonSchema {
    const { r } = this
    const members = types.filter((t) => !(r.kind(t) & (Kind.Undefined | Kind.Void)))
    // `boolean` is `true | false` to the checker: keep it one type.
    const isBool = (t: TypeHandle, value: boolean) => r.kind(t) & Kind.BooleanLiteral && r.literal(t) === value
    const hasTrue = members.some((t) => isBool(t, true))
    const hasFalse = members.some((t) => isBool(t, false))
    const rest = hasTrue && hasFalse ? members.filter((t) => !(r.kind(t) & Kind.BooleanLiteral)) : members
    const schemas = rest.map((t) => this.schema(t, depth + 1))
    if (hasTrue && hasFalse) schemas.push({ type: 'boolean' })
    if (schemas.length === 1) return schemas[0]!
    // Members in one order of our own: the checker's is its own (TypeScript 5 orders a union by when each member type
    // was made, 7 sorts literals), and the same types must give the same schema, the same 400s, on both.
    if (schemas.every((s) => 'const' in s)) return { enum: schemas.map((s) => s.const).sort(byValue) }
    // `T | null` for a simple T: one `type` array.
    const simple = schemas.filter((s) => Object.keys(s).length === 1 && typeof s.type === 'string')
    if (simple.length === schemas.length) return { type: [...new Set(simple.map((s) => s.type as string))].sort() }
    const keyed = schemas.map((s) => [JSON.stringify(s), s] as const)
    return { anyOf: keyed.sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)).map(([, s]) => s) }
  }

  private object(type: TypeHandle, depth: number): JsonSchema {
    const name = this.nameOf(type)
    if (name) {
      const existing = this.named.get(type)
      if (existing) return { $ref: `#/$defs/${existing}` }
      const key = this.uniqueName(name, type)
      this.named.set(type, key)
      this.defs[key] = {} // reserved: a recursive reference sees the name before the body exists
      try {
        this.defs[key] = this.withOwnTags(type, this.objectBody(type, depth))
      } catch (error) {
        // Not describable: no half-made definition is left behind (the checkers visit a union's members in their
        // own orders, so what was reserved before the failure would differ between them).
        delete this.defs[key]
        this.named.delete(type)
        throw error
      }
      return { $ref: `#/$defs/${key}` }
    }
    return this.objectBody(type, depth)
  }

  private objectBody(type: TypeHandle, depth: number): JsonSchema {
    const { r } = this
    const properties: Record<string, JsonSchema> = {}
    const required: string[] = []
    for (const prop of r.properties(type)) {
      if (prop.method && r.callable(prop.type)) continue
      // `x?: never` (or `?: undefined`): a property that must not be sent, such as a field fixed at creation.
      const absent = prop.optional && r.kind(prop.type) & (Kind.Undefined | Kind.Never)
      let schema = absent ? { not: {} } : this.declared(prop.annotation, prop.type, depth + 1)
      if (Object.keys(prop.tags).length) schema = applyConstraints(schema, prop.tags, `property ${prop.name}`)
      if (prop.doc)
        schema = '$ref' in schema ? { allOf: [schema], description: prop.doc } : { ...schema, description: prop.doc }
      properties[prop.name] = schema
      if (!prop.optional && !acceptsUndefined(r, prop.type)) required.push(prop.name)
    }
    const out: JsonSchema = { type: 'object', properties }
    if (required.length) out.required = required
    const index = r.stringIndex(type)
    out.additionalProperties = index ? this.schema(index, depth + 1) : false
    return out
  }

  /**
   * An interface's, class's or object alias's own JSDoc constraints (`@minProperties 1` on `interface Patch`,
   * `@maxProperties 50` on `type Params = Record<string, string>`).
   */
  private withOwnTags(type: TypeHandle, schema: JsonSchema): JsonSchema {
    const alias = this.r.alias(type)
    const name = alias?.name ?? this.r.symbolName(type)
    const tags = alias ? alias.tags : this.r.symbolTags(type)
    return Object.keys(tags).length ? applyConstraints(schema, tags, `type ${name}`) : schema
  }

  /** The name a type is known by (an interface, a class, an alias of an object type), or undefined for literals. */
  private nameOf(type: TypeHandle): string | undefined {
    const alias = this.r.alias(type)
    if (alias && !alias.generic) return alias.name
    const name = this.r.symbolName(type)
    if (!name || name.startsWith('__')) return undefined
    if (this.r.instantiated(type)) return undefined // generic instantiations stay inline
    return name
  }

  private uniqueName(name: string, type: TypeHandle): string {
    let key = name.replace(/[^A-Za-z0-9_.-]/g, '_')
    for (let i = 2; this.taken.has(key) && this.taken.get(key) !== type; i++) key = `${name}${i}`
    this.taken.set(key, type)
    return key
  }

  private aliasConstraints(type: TypeHandle): Tags | undefined {
    const tags = this.r.alias(type)?.tags
    return tags && Object.keys(tags).length ? tags : undefined
  }
}

/** Literal values: `null`, booleans, numbers, then strings, each in its natural order. */
function byValue(a: unknown, b: unknown): number {
  const rank = (v: unknown) => (v === null ? 0 : typeof v === 'boolean' ? 1 : typeof v === 'number' ? 2 : 3)
  if (rank(a) !== rank(b)) return rank(a) - rank(b)
  return (a as number) < (b as number) ? -1 : (a as number) > (b as number) ? 1 : 0
}

function acceptsUndefined(r: TypeReader, type: TypeHandle): boolean {
  if (r.kind(type) & (Kind.Any | Kind.Unknown | Kind.Undefined)) return true
  return (r.kind(type) & Kind.Union) !== 0 && r.members(type).some((t) => r.kind(t) & Kind.Undefined)
}

/**
 * Adds JSDoc constraints to a schema. A constraint with a bad value, or on a type it cannot apply to, throws: the
 * mistake stops start-up (as tsoa and Encore do) instead of being ignored.
 */
export function applyConstraints(schema: JsonSchema, tags: Record<string, string>, where = 'type'): JsonSchema {
  if (Array.isArray(schema.anyOf) && schema.type === undefined) return constrainBranches(schema, tags, where)
  const out = { ...schema }
  const types = new Set<string>([schema.type].flat().filter(Boolean))
  const need = (tag: string, ...allowed: string[]) => {
    if (!allowed.some((t) => types.has(t)))
      throw new TypeError(`@${tag} on ${where} applies to ${allowed.join(' or ')} values only`)
  }
  for (const tag of NUMERIC_TAGS) {
    if (!(tag in tags)) continue
    const value = Number(tags[tag])
    if (tags[tag] === '' || !Number.isFinite(value))
      throw new TypeError(`@${tag} on ${where} needs a number, got "${tags[tag]}"`)
    need(tag, 'number', 'integer')
    out[tag] = value
  }
  for (const tag of COUNT_TAGS) {
    if (!(tag in tags)) continue
    const value = Number(tags[tag])
    if (!Number.isSafeInteger(value) || value < 0)
      throw new TypeError(`@${tag} on ${where} needs a whole number, got "${tags[tag]}"`)
    need(tag, ...(tag.endsWith('Items') ? ['array'] : tag.endsWith('Properties') ? ['object'] : ['string']))
    out[tag] = value
  }
  if ('pattern' in tags) {
    need('pattern', 'string')
    try {
      new RegExp(tags.pattern!, 'u')
    } catch {
      throw new TypeError(`@pattern on ${where} is not a regular expression: ${tags.pattern}`)
    }
    out.pattern = tags.pattern
  }
  if ('format' in tags) {
    need('format', 'string')
    const format = tags.format === 'url' ? 'uri' : tags.format!
    if (!FORMATS.has(format))
      throw new TypeError(
        `@format on ${where}: unknown format "${tags.format}" (use one of ${[...FORMATS].join(', ')})`,
      )
    out.format = format
  }
  if ('errorMessage' in tags) {
    // ts-json-schema-generator's tag (for ajv-errors): the message a failed check of this value answers with.
    if (!tags.errorMessage) throw new TypeError(`@errorMessage on ${where} needs the message`)
    out.errorMessage = tags.errorMessage.startsWith('{') ? keywordMessages(tags.errorMessage, where) : tags.errorMessage
  }
  if ('json' in tags) out[JSON_MARK] = true // sent as JSON text (a multipart part holding a list or an object)
  // `@example "lamp"`, `@example 3`, `@example {"a": 1}`: JSON when it reads as JSON, else the text itself. An annotation
  // (no check reads it); the OpenAPI document shows it.
  if ('example' in tags && tags.example !== '') out.examples = [exampleOf(tags.example!)]
  if ('integer' in tags || 'isInt' in tags) {
    need('integer', 'number')
    out.type = Array.isArray(out.type) ? out.type.map((t: string) => (t === 'number' ? 'integer' : t)) : 'integer'
  }
  return out
}

function exampleOf(text: string): unknown {
  try {
    return JSON.parse(text)
  } catch {
    return text
  }
}

/**
 * `T[] | null`, `Page | undefined`-like unions: each tag goes to the branches it applies to (never `null`), and a tag
 * that applies to none is the usual start-up error.
 */
function constrainBranches(schema: JsonSchema, tags: Record<string, string>, where: string): JsonSchema {
  const { errorMessage, ...rest } = tags
  let first: unknown
  let applied = false
  const anyOf = (schema.anyOf as JsonSchema[]).map((branch) => {
    if (branch.type === 'null' || Object.keys(rest).length === 0) return branch
    try {
      const out = applyConstraints(branch, rest, where)
      applied = true
      return out
    } catch (error) {
      first ??= error
      return branch
    }
  })
  if (!applied && first) throw first
  return { ...schema, anyOf, ...(errorMessage !== undefined ? applyConstraints({}, { errorMessage }, where) : {}) }
}

/** The keywords a per-keyword `@errorMessage` may name: what a type or a JSDoc tag can make fail. */
const MESSAGE_KEYWORDS = new Set([
  'type',
  'required',
  'additionalProperties',
  'enum',
  'const',
  'not',
  'anyOf',
  'format',
  'pattern',
  ...NUMERIC_TAGS,
  ...COUNT_TAGS,
])

/** `@errorMessage {"maxItems": "At most 20 entries."}`: a message per keyword, as ajv-errors takes them. */
function keywordMessages(text: string, where: string): Record<string, string> {
  let parsed: unknown
  try {
    parsed = JSON.parse(text)
  } catch {
    throw new TypeError(`@errorMessage on ${where} starts with { but is not JSON: ${text}`)
  }
  const entries = Object.entries(parsed as Record<string, unknown>)
  for (const [keyword, message] of entries) {
    if (!MESSAGE_KEYWORDS.has(keyword))
      throw new TypeError(
        `@errorMessage on ${where}: "${keyword}" is not a keyword (use one of ${[...MESSAGE_KEYWORDS].join(', ')})`,
      )
    if (typeof message !== 'string' || !message)
      throw new TypeError(`@errorMessage on ${where}: the message for "${keyword}" must be a text`)
  }
  return Object.fromEntries(entries) as Record<string, string>
}
