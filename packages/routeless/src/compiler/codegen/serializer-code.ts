/**
 * The code generator behind `compileSerializer` (`serializer.ts`): a return type's schema becomes the source of a
 * function that appends the value's JSON to `s`, throwing `M` at the first mismatch.
 * @module
 */
import { JS_MARK, type JsonSchema } from '../../runtime/contract/manifest.ts'

export { MAX_DEPTH, type SerializerFactory } from '../../runtime/contract/serializer-runtime.ts'

/** The JSON kinds a value is told apart by in a union; `date` is an object with a `toJSON` (a `Date`). */
type Kind = 'string' | 'number' | 'boolean' | 'null' | 'object' | 'array' | 'date'

/** Writes the source of one return type's serializer (`serializerSource` in `serializer.ts` puts it together). */
export class SerializerGenerator {
  /** Generated functions: one per named type reached. */
  readonly functions: string[] = []
  /** How many parts are written precisely (0: the serializer would only call the fallback). */
  precise = 0
  private readonly named = new Map<string, string>()
  /** Named types left to the fallback (every reference to them is imprecise). */
  private readonly opaque = new Set<string>()
  private vars = 0

  constructor(private readonly defs: Record<string, JsonSchema>) {}

  /**
   * Code that appends the JSON of the value in variable `x` (of type `schema`) to `s`, or throws `M` when the value
   * does not match; `undefined` when `schema` is too imprecise (the caller decides whether to use the fallback).
   * `d` is the variable holding the current depth of named types.
   */
  value(schema: JsonSchema, x: string, d: string): string | undefined {
    schema = unwrap(schema)
    if (typeof schema.$ref === 'string') return this.ref(schema.$ref, x, d)
    if ('const' in schema) return this.literals([schema.const], x)
    if (Array.isArray(schema.enum)) return this.literals(schema.enum, x)
    if (Array.isArray(schema.anyOf)) return this.union(schema.anyOf, x, d)
    if (Array.isArray(schema.type))
      return this.union(
        schema.type.map((type: string) => ({ ...schema, type })),
        x,
        d,
      )
    if (onlyAnnotations(schema, ['type', 'format', JS_MARK]) && schema[JS_MARK] === 'Date') return this.date(x)
    switch (schema.type) {
      case 'string':
        this.precise++
        return `if (typeof ${x} !== 'string') throw M; s += str(${x});`
      case 'number':
      case 'integer':
        this.precise++
        return `if (!Number.isFinite(${x})) throw M; s += '' + ${x};`
      case 'boolean':
        this.precise++
        return `if (${x} === true) s += 'true'; else if (${x} === false) s += 'false'; else throw M;`
      case 'null':
        this.precise++
        return `if (${x} !== null) throw M; s += 'null';`
      case 'array':
        return this.array(schema, x, d)
      case 'object':
        return this.object(schema, x, d)
    }
    return undefined
  }

  /** `value`, with the fallback for an imprecise schema. */
  private part(schema: JsonSchema, x: string, d: string): string {
    return this.value(schema, x, d) ?? `{ const j = fb(${x}); if (j === undefined) throw M; s += j; }`
  }

  private fresh(): string {
    return `x${this.vars++}`
  }

  private ref(ref: string, x: string, d: string): string | undefined {
    if (!ref.startsWith('#/$defs/')) return undefined
    const name = ref.slice(8)
    const target = this.defs[name]
    if (!target) return undefined
    let fn = this.named.get(name)
    if (!fn) {
      fn = `t${this.named.size}`
      this.named.set(name, fn) // before writing its code: a recursive reference finds it
      const before = this.precise
      const body = this.value(target, 'x', 'd')
      // An imprecise named type is the fallback's, as a function all the same (a recursive reference may call it).
      this.functions.push(
        `function ${fn}(x, d) {
  if (d > MAX_DEPTH) throw M
  let s = ''
  ${body ?? `{ const j = fb(x); if (j === undefined) throw M; s += j; }`}
  return s
}`,
      )
      if (body === undefined || this.precise === before) {
        this.opaque.add(name)
        return undefined
      }
    } else if (this.opaque.has(name)) return undefined
    this.precise++
    return `s += ${fn}(${x}, ${d} + 1);`
  }

  private date(x: string): string {
    this.precise++
    // A Date as Date.prototype.toJSON writes it, without its lookups (an ISO string has nothing to escape).
    const t = this.fresh()
    return `if (typeof ${x} === 'string') s += str(${x});
else if (${x} instanceof Date && ${x}.toJSON === DJ) {
  const ${t} = iso(${x}); if (${t} === undefined) throw M; s += ${t};
} else if (typeof ${x} === 'object' && ${x} !== null && typeof ${x}.toJSON === 'function') {
  const j = ${x}.toJSON(); if (typeof j !== 'string') throw M; s += str(j);
} else throw M;`
  }

  /** An enum or a const: a switch over its values, each written as a literal. */
  private literals(values: unknown[], x: string): string | undefined {
    if (!values.every((v) => v === null || ['string', 'number', 'boolean'].includes(typeof v))) return undefined
    if (values.some((v) => typeof v === 'number' && !Number.isFinite(v))) return undefined
    this.precise++
    const cases = [...new Set(values)]
      .map((v) => `case ${JSON.stringify(v)}: s += ${JSON.stringify(JSON.stringify(v))}; break;`)
      .join('\n')
    return `switch (${x}) {\n${cases}\ndefault: throw M\n}`
  }

  private array(schema: JsonSchema, x: string, d: string): string | undefined {
    if (Array.isArray(schema.prefixItems)) return this.tuple(schema, x, d)
    if (schema.items === undefined || schema.items === true) return undefined
    const i = this.fresh()
    const item = this.fresh()
    const code = this.value(schema.items, item, d)
    if (code === undefined) return undefined
    return `if (!Array.isArray(${x})) throw M;
s += '[';
for (let ${i} = 0; ${i} < ${x}.length; ${i}++) {
  if (${i} !== 0) s += ',';
  const ${item} = ${x}[${i}];
  ${code}
}
s += ']';`
  }

  /** `[number, string]`: `{prefixItems, minItems: n, maxItems: n}`, an array of exactly that length. */
  private tuple(schema: JsonSchema, x: string, d: string): string | undefined {
    const items = schema.prefixItems as JsonSchema[]
    const n = items.length
    if (schema.minItems !== n || schema.maxItems !== n || (schema.items !== undefined && schema.items !== false))
      return undefined
    const before = this.precise
    let code = `if (!Array.isArray(${x}) || ${x}.length !== ${n}) throw M;\ns += '[';`
    items.forEach((item, i) => {
      const y = this.fresh()
      code += `\n${i ? "s += ',';\n" : ''}const ${y} = ${x}[${i}];\n${this.part(item, y, d)}`
    })
    if (n > 0 && this.precise === before) return undefined // `[unknown, unknown]`: the fallback's
    this.precise++
    return `${code}\ns += ']';`
  }

  private object(schema: JsonSchema, x: string, d: string): string | undefined {
    const properties = schema.properties as Record<string, JsonSchema> | undefined
    const extra = schema.additionalProperties
    const isObject = `if (typeof ${x} !== 'object' || ${x} === null || Array.isArray(${x}) || typeof ${x}.toJSON === 'function') throw M;`
    if (!properties) return undefined
    const names = Object.keys(properties)
    if (extra !== false && extra !== undefined) {
      // `Record<string, T>`: every own key, each value a T.
      if (names.length > 0 || extra === true || typeof extra !== 'object') return undefined
      const k = this.fresh()
      const y = this.fresh()
      const first = this.fresh()
      const code = this.value(extra, y, d)
      if (code === undefined) return undefined
      this.precise++
      return `${isObject}
s += '{';
let ${first} = true;
for (const ${k} of Object.keys(${x})) {
  const ${y} = ${x}[${k}];
  if (${y} === undefined) continue;
  s += (${first} ? '' : ',') + str(${k}) + ':';
  ${first} = false;
  ${code}
}
s += '}';`
    }
    if (extra === undefined) return undefined // an open object: its other properties are part of it
    this.precise++
    const required = new Set<string>(Array.isArray(schema.required) ? schema.required : [])
    // What is written before the next property: not even `{`, `{` alone, a property for sure, or "see the flag".
    let state: 'open' | 'none' | 'some' | 'flag' = 'open'
    const flag = this.fresh()
    // Written properties are counted: an object with more keys than it has declared properties carries one its type
    // does not declare, and is written whole by the fallback (nothing a handler returns is dropped).
    const count = this.fresh()
    const key = this.fresh()
    let code = `${isObject}\nlet ${count} = 0;`
    const literal = (text: string) => JSON.stringify(text)
    for (const name of names) {
      const prop = unwrap(properties[name]!)
      if (isNever(prop)) continue // `x?: never`: must not be sent
      const y = this.fresh()
      const key = `${JSON.stringify(name)}:`
      code += `\nconst ${y} = ${x}[${JSON.stringify(name)}];`
      if (!required.has(name) && state === 'open') {
        code += `\nlet ${flag} = false;\ns += '{';`
        state = 'none'
      }
      const write =
        state === 'open'
          ? literal(`{${key}`)
          : state === 'none'
            ? literal(key)
            : state === 'some'
              ? literal(`,${key}`)
              : `(${flag} ? ${literal(`,${key}`)} : ${literal(key)})`
      const value = `s += ${write};\n${this.part(prop, y, d)}`
      if (required.has(name)) {
        code += `\nif (${y} === undefined) throw M;\n${count}++;\n${value}`
        state = 'some'
      } else {
        code += `\nif (${y} !== undefined) {\n${count}++;\n${value}${state === 'some' ? '' : `\n${flag} = true;`}\n}`
        if (state === 'none') state = 'flag'
      }
    }
    return `${code}\nfor (const ${key} in ${x}) if (--${count} < 0) throw M;\ns += ${state === 'open' ? "'{}'" : "'}'"};`
  }

  /**
   * A union: told apart by JSON kind. Each kind goes to the one member of that kind; several members of one
   * primitive kind (`'a' | string`) write it as that kind; several objects, when one required property's value tells
   * them apart (`discriminated`); other unions of objects, and of arrays, are imprecise.
   */
  private union(members: JsonSchema[], x: string, d: string): string | undefined {
    const byKind = new Map<Kind, JsonSchema[]>()
    for (const member of members) {
      const kinds = this.kinds(member, 0)
      if (!kinds) return undefined
      for (const kind of kinds) byKind.set(kind, [...(byKind.get(kind) ?? []), member])
    }
    const code = (kind: Kind): string | undefined => {
      const of = byKind.get(kind)
      if (!of) return 'throw M;'
      if (of.length === 1) return this.value(of[0]!, x, d)
      if (kind === 'string') return this.value({ type: 'string' }, x, d)
      if (kind === 'number') return this.value({ type: 'number' }, x, d)
      if (kind === 'boolean') return this.value({ type: 'boolean' }, x, d)
      if (kind === 'null') return this.value({ type: 'null' }, x, d)
      if (kind === 'object') return this.discriminated(of, x, d)
      return undefined
    }
    const kinds = [...byKind.keys()]
    // `T | null` (`Date | null` included: one member of two kinds): the common case, one test.
    const others = new Set(kinds.filter((k) => k !== 'null').flatMap((k) => byKind.get(k)!))
    if (byKind.get('null')?.length === 1 && others.size === 1) {
      const rest = this.value([...others][0]!, x, d)
      if (rest === undefined) return undefined
      return `if (${x} === null) s += 'null';\nelse {\n${rest}\n}`
    }
    const parts: Partial<Record<Kind, string>> = {}
    for (const kind of ['string', 'number', 'boolean', 'null', 'object', 'array', 'date'] as const) {
      const part = code(kind)
      if (part === undefined) return undefined
      parts[kind] = part
    }
    const objectCode = byKind.has('date')
      ? `if (typeof ${x}.toJSON === 'function') {\n${parts.date}\n} else {\n${parts.object}\n}`
      : parts.object
    return `if (${x} === null) {\n${parts.null}\n} else switch (typeof ${x}) {
case 'string': {\n${parts.string}\nbreak;\n}
case 'number': {\n${parts.number}\nbreak;\n}
case 'boolean': {\n${parts.boolean}\nbreak;\n}
case 'object': if (Array.isArray(${x})) {\n${parts.array}\n} else {\n${objectCode}\n}\nbreak;
default: throw M;
}`
  }

  /**
   * Objects told apart by a required property whose value each fixes (`{kind: 'a', …} | {kind: 'b', …}`): a switch on
   * it. Other unions of objects are imprecise (`undefined`).
   */
  private discriminated(members: JsonSchema[], x: string, d: string): string | undefined {
    const objects = members.map((m) => this.resolve(m))
    if (objects.some((o) => o?.type !== 'object' || !o.properties)) return undefined
    const fixed = (o: JsonSchema, name: string): unknown[] | undefined => {
      if (!Array.isArray(o.required) || !o.required.includes(name)) return undefined
      const p = unwrap(o.properties[name])
      const values = 'const' in p ? [p.const] : Array.isArray(p.enum) ? p.enum : undefined
      return values?.every((v) => typeof v === 'string' || (typeof v === 'number' && Number.isFinite(v)))
        ? values
        : undefined
    }
    for (const name of Object.keys(objects[0]!.properties)) {
      const values = objects.map((o) => fixed(o!, name))
      if (values.some((v) => !v)) continue
      const all = values.flat()
      if (new Set(all).size !== all.length) continue // two members share a value: not told apart by it
      const cases: string[] = []
      for (let i = 0; i < members.length; i++) {
        const code = this.value(members[i]!, x, d)
        if (code === undefined) return undefined
        cases.push(`${values[i]!.map((v) => `case ${JSON.stringify(v)}:`).join(' ')} {\n${code}\nbreak;\n}`)
      }
      return `switch (${x}[${JSON.stringify(name)}]) {\n${cases.join('\n')}\ndefault: throw M;\n}`
    }
    return undefined
  }

  /** `schema` with its references followed and documented wrappers removed (`undefined` for a missing type). */
  private resolve(schema: JsonSchema): JsonSchema | undefined {
    schema = unwrap(schema)
    for (let i = 0; i < 32 && typeof schema.$ref === 'string'; i++) {
      const target = schema.$ref.startsWith('#/$defs/') ? this.defs[schema.$ref.slice(8)] : undefined
      if (!target) return undefined
      schema = unwrap(target)
    }
    return schema
  }

  /** The JSON kinds a schema's values may be of; `undefined` when it says too little (any kind, or unknown). */
  private kinds(schema: JsonSchema, depth: number): Kind[] | undefined {
    schema = unwrap(schema)
    if (depth > 32) return undefined
    if (typeof schema.$ref === 'string') {
      const target = schema.$ref.startsWith('#/$defs/') ? this.defs[schema.$ref.slice(8)] : undefined
      return target ? this.kinds(target, depth + 1) : undefined
    }
    const ofValues = (values: unknown[]): Kind[] | undefined => {
      const out = new Set<Kind>()
      for (const v of values) {
        if (v === null) out.add('null')
        else if (typeof v === 'string' || typeof v === 'boolean') out.add(typeof v as Kind)
        else if (typeof v === 'number' && Number.isFinite(v)) out.add('number')
        else return undefined
      }
      return [...out]
    }
    if ('const' in schema) return ofValues([schema.const])
    if (Array.isArray(schema.enum)) return ofValues(schema.enum)
    if (Array.isArray(schema.anyOf)) {
      const out = new Set<Kind>()
      for (const member of schema.anyOf) {
        const kinds = this.kinds(member, depth + 1)
        if (!kinds) return undefined
        for (const k of kinds) out.add(k)
      }
      return [...out]
    }
    if (schema[JS_MARK] === 'Date') return ['string', 'date']
    const types = [schema.type].flat()
    const out: Kind[] = []
    for (const type of types) {
      if (type === 'integer' || type === 'number') out.push('number')
      else if (type === 'string' || type === 'boolean' || type === 'null' || type === 'object' || type === 'array')
        out.push(type)
      else return undefined
    }
    return out.length ? out : undefined
  }
}

/** Keywords that say nothing about what is written (documentation and checks `checkReturn` makes). */
const ANNOTATIONS = new Set([
  'description',
  'title',
  'errorMessage',
  'examples',
  'deprecated',
  'format',
  'pattern',
  'minLength',
  'maxLength',
  'minimum',
  'maximum',
  'exclusiveMinimum',
  'exclusiveMaximum',
  'multipleOf',
  'minItems',
  'maxItems',
  'minProperties',
  'maxProperties',
  'uniqueItems',
  'x-json',
])

function onlyAnnotations(schema: JsonSchema, also: string[]): boolean {
  return Object.keys(schema).every((k) => ANNOTATIONS.has(k) || also.includes(k))
}

/** `{allOf: [s], description}` (a documented property of a named type) is `s`. */
function unwrap(schema: JsonSchema): JsonSchema {
  while (
    Array.isArray(schema.allOf) &&
    schema.allOf.length === 1 &&
    Object.keys(schema).every((k) => k === 'allOf' || ANNOTATIONS.has(k))
  )
    schema = schema.allOf[0]
  return schema
}

/** `{not: {}}`: `x?: never`. */
function isNever(schema: JsonSchema): boolean {
  return typeof schema.not === 'object' && schema.not !== null && Object.keys(schema.not).length === 0
}

/** Tells what is wrong with a returned value, or `undefined` when it matches its type. */
