/**
 * Internal, loaded only with `analyze.ts`: turns a TypeScript type, as the checker resolves it, into JSON Schema
 * (draft 2020-12). Named interfaces and aliases of objects become `$defs` (`#/$defs/Name`, cycles included); JSDoc
 * tags (`@minimum`, `@maxLength`, `@pattern`, `@format email` …) on properties and aliases become constraints.
 * @module
 */
import type ts from 'typescript'
import { JS_MARK, JSON_MARK, type JsonSchema } from './manifest.ts'

type TS = typeof ts

/** A JSDoc constraint and the schema types it applies to. */
const NUMERIC_TAGS = ['minimum', 'maximum', 'exclusiveMinimum', 'exclusiveMaximum'] as const
const COUNT_TAGS = ['minLength', 'maxLength', 'minItems', 'maxItems', 'minProperties', 'maxProperties'] as const
const FORMATS = new Set(['date', 'date-time', 'time', 'email', 'uri', 'url', 'uuid', 'ipv4', 'ipv6', 'hostname'])

/** A type the schema cannot express: the parameter falls back to untyped binding, with a warning. */
export class Unsupported extends Error {}

export class SchemaWriter {
  readonly defs: Record<string, JsonSchema> = {}
  private readonly named = new Map<ts.Type, string>()
  private readonly taken = new Map<string, ts.Type>()

  constructor(
    private readonly ts: TS,
    private readonly checker: ts.TypeChecker,
  ) {}

  /** The schema of `type`; `at` is a node used to resolve property types. Throws `Unsupported`. */
  schema(type: ts.Type, at: ts.Node, depth = 0): JsonSchema {
    const { ts, checker } = this
    if (depth > 40) throw new Unsupported('a type nested too deeply')
    const f = type.flags
    if (f & (ts.TypeFlags.Any | ts.TypeFlags.Unknown)) return {}
    if (f & ts.TypeFlags.Never) return { not: {} }
    const constraints = this.aliasConstraints(type)
    const withConstraints = (s: JsonSchema) => (constraints ? applyConstraints(s, constraints) : s)
    if (f & ts.TypeFlags.String) return withConstraints({ type: 'string' })
    if (f & ts.TypeFlags.Number) return withConstraints({ type: 'number' })
    if (f & ts.TypeFlags.Boolean) return { type: 'boolean' }
    if (f & ts.TypeFlags.Null) return { type: 'null' }
    if (f & ts.TypeFlags.StringLiteral) return { const: (type as ts.StringLiteralType).value }
    if (f & ts.TypeFlags.NumberLiteral) return { const: (type as ts.NumberLiteralType).value }
    if (f & ts.TypeFlags.BooleanLiteral) return { const: checker.typeToString(type) === 'true' }
    if (f & ts.TypeFlags.BigInt) throw new Unsupported('bigint')
    if (f & (ts.TypeFlags.Undefined | ts.TypeFlags.Void)) throw new Unsupported('undefined')
    if (type.isUnion()) return withConstraints(this.union(type, at, depth))
    if (f & ts.TypeFlags.Object) {
      const symbol = type.getSymbol()
      if (symbol?.getName() === 'Date')
        return withConstraints({ type: 'string', format: 'date-time', [JS_MARK]: 'Date' })
      if (checker.isArrayType(type)) {
        const [item] = checker.getTypeArguments(type as ts.TypeReference)
        return withConstraints({ type: 'array', items: item ? this.schema(item, at, depth + 1) : {} })
      }
      if (checker.isTupleType(type)) {
        const items = checker.getTypeArguments(type as ts.TypeReference).map((t) => this.schema(t, at, depth + 1))
        return { type: 'array', prefixItems: items, minItems: items.length, maxItems: items.length }
      }
      if (type.getCallSignatures().length > 0) throw new Unsupported('a function')
      const name = symbol?.getName()
      // An uploaded file (a multipart part): checked as a `Blob` by the binder, `format: binary` in OpenAPI.
      if (name === 'File' || name === 'Blob') return { [JS_MARK]: 'File' }
      if (
        name &&
        [
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
        ].includes(name)
      ) {
        throw new Unsupported(`a ${name}`)
      }
      return this.object(type, at, depth)
    }
    if (type.isIntersection()) return this.object(type, at, depth)
    throw new Unsupported(checker.typeToString(type))
  }

  /**
   * The schema of a declaration (a parameter, a property) of type `type`: as `schema`, plus the JSDoc constraints of
   * a type alias its annotation names (`/** @minimum 1 *\/ type Page = number` then `page: Page`): the checker does
   * not keep aliases of primitives on the type itself.
   */
  declared(declaration: ts.Node | undefined, type: ts.Type, at: ts.Node, depth = 0): JsonSchema {
    const schema = this.schema(type, declaration ?? at, depth)
    const node = declaration && (declaration as { type?: ts.TypeNode }).type
    return node && !type.aliasSymbol ? this.aliasedAt(node, schema) : schema
  }

  /** `schema` with the JSDoc constraints of the aliases `node` names: `Page`, and the items of `Label[]`/`Array<Label>`. */
  private aliasedAt(node: ts.TypeNode, schema: JsonSchema): JsonSchema {
    const { ts, checker } = this
    if (ts.isParenthesizedTypeNode(node)) return this.aliasedAt(node.type, schema)
    const element = ts.isArrayTypeNode(node)
      ? node.elementType
      : ts.isTypeReferenceNode(node) && node.typeName.getText() === 'Array' && node.typeArguments?.length === 1
        ? node.typeArguments[0]
        : undefined
    if (element)
      return schema.type === 'array' && schema.items && !schema.items.$ref
        ? { ...schema, items: this.aliasedAt(element, schema.items) }
        : schema
    if (ts.isUnionTypeNode(node)) {
      // `Page | null`, `Page | undefined`: the alias's constraints on the member it makes (null keeps none).
      const members = node.types.filter(
        (t) =>
          !(ts.isLiteralTypeNode(t) && t.literal.kind === ts.SyntaxKind.NullKeyword) &&
          t.kind !== ts.SyntaxKind.UndefinedKeyword,
      )
      // (An `anyOf` takes each tag on the branches it fits: applyConstraints.)
      return members.length === 1 ? this.aliasedAt(members[0]!, schema) : schema
    }
    if (!ts.isTypeReferenceNode(node) || schema.$ref) return schema
    let symbol = checker.getSymbolAtLocation(node.typeName)
    if (symbol && symbol.flags & ts.SymbolFlags.Alias) symbol = checker.getAliasedSymbol(symbol)
    if (!symbol || !(symbol.flags & ts.SymbolFlags.TypeAlias)) return schema
    const tags = tagMap(symbol.getJsDocTags(checker))
    return Object.keys(tags).length ? applyConstraints(schema, tags, `type ${symbol.getName()}`) : schema
  }

  private union(type: ts.UnionType, at: ts.Node, depth: number): JsonSchema {
    const { ts } = this
    const members = type.types.filter((t) => !(t.flags & (ts.TypeFlags.Undefined | ts.TypeFlags.Void)))
    // `boolean` is `true | false` to the checker: keep it one type.
    const hasTrue = members.some(
      (t) => t.flags & ts.TypeFlags.BooleanLiteral && this.checker.typeToString(t) === 'true',
    )
    const hasFalse = members.some(
      (t) => t.flags & ts.TypeFlags.BooleanLiteral && this.checker.typeToString(t) === 'false',
    )
    const rest = hasTrue && hasFalse ? members.filter((t) => !(t.flags & ts.TypeFlags.BooleanLiteral)) : members
    const schemas = rest.map((t) => this.schema(t, at, depth + 1))
    if (hasTrue && hasFalse) schemas.push({ type: 'boolean' })
    if (schemas.length === 1) return schemas[0]!
    if (schemas.every((s) => 'const' in s)) return { enum: schemas.map((s) => s.const) }
    // `T | null` for a simple T: one `type` array.
    const simple = schemas.filter((s) => Object.keys(s).length === 1 && typeof s.type === 'string')
    if (simple.length === schemas.length) return { type: [...new Set(simple.map((s) => s.type as string))] }
    return { anyOf: schemas }
  }

  private object(type: ts.Type, at: ts.Node, depth: number): JsonSchema {
    const name = this.nameOf(type)
    if (name) {
      const existing = this.named.get(type)
      if (existing) return { $ref: `#/$defs/${existing}` }
      const key = this.uniqueName(name, type)
      this.named.set(type, key)
      this.defs[key] = {} // reserved: a recursive reference sees the name before the body exists
      this.defs[key] = this.withOwnTags(type, this.objectBody(type, at, depth))
      return { $ref: `#/$defs/${key}` }
    }
    return this.objectBody(type, at, depth)
  }

  private objectBody(type: ts.Type, at: ts.Node, depth: number): JsonSchema {
    const { ts, checker } = this
    const properties: Record<string, JsonSchema> = {}
    const required: string[] = []
    for (const prop of checker.getPropertiesOfType(type)) {
      const declaration = prop.valueDeclaration ?? prop.declarations?.[0]
      const propType = checker.getTypeOfSymbolAtLocation(prop, declaration ?? at)
      if (
        propType.getCallSignatures().length > 0 &&
        declaration &&
        (ts.isMethodDeclaration(declaration) || ts.isMethodSignature(declaration))
      )
        continue
      // `x?: never` (or `?: undefined`): a property that must not be sent, such as a field fixed at creation.
      const absent =
        prop.flags & ts.SymbolFlags.Optional && propType.flags & (ts.TypeFlags.Undefined | ts.TypeFlags.Never)
      let schema = absent ? { not: {} } : this.declared(declaration, propType, at, depth + 1)
      const doc = ts.displayPartsToString(prop.getDocumentationComment(checker)).trim()
      const tags = tagMap(prop.getJsDocTags(checker))
      if (Object.keys(tags).length) schema = applyConstraints(schema, tags, `property ${prop.getName()}`)
      if (doc) schema = '$ref' in schema ? { allOf: [schema], description: doc } : { ...schema, description: doc }
      properties[prop.getName()] = schema
      if (!(prop.flags & ts.SymbolFlags.Optional) && !acceptsUndefined(ts, propType)) required.push(prop.getName())
    }
    const out: JsonSchema = { type: 'object', properties }
    if (required.length) out.required = required
    const index = checker.getIndexInfoOfType(type, ts.IndexKind.String)
    out.additionalProperties = index ? this.schema(index.type, at, depth + 1) : false
    return out
  }

  /**
   * An interface's, class's or object alias's own JSDoc constraints (`@minProperties 1` on `interface Patch`,
   * `@maxProperties 50` on `type Params = Record<string, string>`).
   */
  private withOwnTags(type: ts.Type, schema: JsonSchema): JsonSchema {
    const symbol = type.aliasSymbol ?? type.getSymbol()
    if (!symbol) return schema
    const tags = tagMap(symbol.getJsDocTags(this.checker))
    return Object.keys(tags).length ? applyConstraints(schema, tags, `type ${symbol.getName()}`) : schema
  }

  /** The name a type is known by (an interface, a class, an alias of an object type), or undefined for literals. */
  private nameOf(type: ts.Type): string | undefined {
    const alias = type.aliasSymbol?.getName()
    if (alias && !type.aliasTypeArguments?.length) return alias
    const symbol = type.getSymbol()
    const name = symbol?.getName()
    if (!name || name.startsWith('__')) return undefined
    if ((type as ts.TypeReference).typeArguments?.length) return undefined // generic instantiations stay inline
    return name
  }

  private uniqueName(name: string, type: ts.Type): string {
    let key = name.replace(/[^A-Za-z0-9_.-]/g, '_')
    for (let i = 2; this.taken.has(key) && this.taken.get(key) !== type; i++) key = `${name}${i}`
    this.taken.set(key, type)
    return key
  }

  private aliasConstraints(type: ts.Type): Record<string, string> | undefined {
    const alias = type.aliasSymbol
    if (!alias) return undefined
    const tags = tagMap(alias.getJsDocTags(this.checker))
    return Object.keys(tags).length ? tags : undefined
  }
}

function acceptsUndefined(ts: TS, type: ts.Type): boolean {
  if (type.flags & (ts.TypeFlags.Any | ts.TypeFlags.Unknown | ts.TypeFlags.Undefined)) return true
  return type.isUnion() && type.types.some((t) => t.flags & ts.TypeFlags.Undefined)
}

function tagMap(tags: readonly ts.JSDocTagInfo[]): Record<string, string> {
  const out: Record<string, string> = {}
  for (const tag of tags)
    out[tag.name] = (tag.text ?? [])
      .map((p) => p.text)
      .join('')
      .trim()
  return out
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
  if ('integer' in tags || 'isInt' in tags) {
    need('integer', 'number')
    out.type = Array.isArray(out.type) ? out.type.map((t: string) => (t === 'number' ? 'integer' : t)) : 'integer'
  }
  return out
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
