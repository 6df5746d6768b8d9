import { mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import path from 'node:path'
import { describe, expect, it } from 'vitest'
import type { JsonSchema } from '../../packages/routeless/src/runtime/contract/manifest.ts'
import { compileSerializer, MAX_DEPTH } from '../../packages/routeless/src/compiler/codegen/serializer.ts'
import { checkReturn } from '../../packages/routeless/src/compiler/codegen/return-check.ts'
import { stringify } from '../../packages/routeless/src/runtime/lifecycle/json.ts'

// Schemas as the analyser writes them (compiler/analysis/type-schema.ts): named types in $defs, `#/$defs/Name` references.
const DATE = { type: 'string', format: 'date-time', 'x-js': 'Date' }
const defs: Record<string, JsonSchema> = {
  Tag: {
    type: 'object',
    properties: { id: { type: 'number' }, label: { type: 'string' } },
    required: ['id', 'label'],
    additionalProperties: false,
  },
  Address: {
    type: 'object',
    properties: { city: { type: 'string' }, zip: { type: ['null', 'string'] } },
    required: ['city'],
    additionalProperties: false,
  },
  User: {
    type: 'object',
    properties: {
      id: { type: 'integer', minimum: 1 },
      name: { type: 'string', minLength: 1 },
      email: { type: 'string', format: 'email' },
      role: { enum: ['admin', 'user'] },
      active: { type: 'boolean' },
      createdAt: DATE,
      deletedAt: { anyOf: [{ type: 'null' }, DATE] },
      score: { type: ['null', 'number'] },
      tags: { type: 'array', items: { $ref: '#/$defs/Tag' }, description: 'the tags' },
      address: { allOf: [{ $ref: '#/$defs/Address' }], description: 'where' },
      manager: { $ref: '#/$defs/User' },
      meta: { type: 'object', properties: {}, additionalProperties: { type: 'string' } },
      level: { enum: [2, 1, 3] },
      verified: { const: true },
      id2: { not: {} },
    },
    required: ['id', 'name', 'role', 'active', 'createdAt', 'deletedAt', 'score', 'tags', 'meta', 'level'],
    additionalProperties: false,
  },
  // `interface Node { value: number; children: Node[] }`
  Node: {
    type: 'object',
    properties: { value: { type: 'number' }, children: { type: 'array', items: { $ref: '#/$defs/Node' } } },
    required: ['value', 'children'],
    additionalProperties: false,
  },
}

const USERS = {
  type: 'object',
  properties: {
    users: { type: 'array', items: { $ref: '#/$defs/User' } },
    total: { type: 'number' },
    next: { type: ['null', 'string'] },
  },
  required: ['users', 'total', 'next'],
  additionalProperties: false,
}

/** Precise schemas, each with a serializer. */
const PRECISE: Record<string, JsonSchema> = {
  users: USERS,
  user: { $ref: '#/$defs/User' },
  tree: { $ref: '#/$defs/Node' },
  string: { type: 'string' },
  number: { type: 'number' },
  integer: { type: 'integer' },
  boolean: { type: 'boolean' },
  null: { type: 'null' },
  date: DATE,
  nullableDate: { anyOf: [DATE, { type: 'null' }] },
  stringEnum: { enum: ['red', 'green', 'blue', 'with "quotes"'] },
  numberEnum: { enum: [1, 2.5, -3] },
  mixedEnum: { enum: ['a', 1, true, null] },
  constString: { const: 'fixed' },
  strings: { type: 'array', items: { type: 'string' } },
  matrix: { type: 'array', items: { type: 'array', items: { type: ['number', 'null'] } } },
  scalarUnion: { type: ['string', 'number', 'boolean', 'null'] },
  kindUnion: { anyOf: [{ type: 'string' }, { $ref: '#/$defs/Tag' }, { type: 'array', items: { type: 'number' } }] },
  literalOrString: { anyOf: [{ const: 'auto' }, { type: 'string' }, { type: 'number' }] },
  nullableObject: { anyOf: [{ $ref: '#/$defs/Address' }, { type: 'null' }] },
  record: { type: 'object', properties: {}, additionalProperties: { $ref: '#/$defs/Tag' } },
  optionalsFirst: {
    type: 'object',
    properties: { a: { type: 'string' }, b: { type: 'number' }, c: { type: 'boolean' }, d: { type: 'string' } },
    required: ['c'],
    additionalProperties: false,
  },
  allOptional: {
    type: 'object',
    properties: { a: { type: 'string' }, b: { type: 'number' } },
    additionalProperties: false,
  },
  empty: { type: 'object', properties: {}, additionalProperties: false },
  withUnknown: {
    type: 'object',
    properties: { id: { type: 'number' }, data: {}, pair: { type: 'array', prefixItems: [{ type: 'number' }] } },
    required: ['id'],
    additionalProperties: false,
  },
  // `{ kind: 'circle'; r: number } | { side: number; kind: 'square' | 'box'; label?: string } | null`
  shapes: {
    anyOf: [
      {
        type: 'object',
        properties: { kind: { const: 'circle' }, r: { type: 'number' } },
        required: ['kind', 'r'],
        additionalProperties: false,
      },
      {
        type: 'object',
        properties: { side: { type: 'number' }, kind: { enum: ['square', 'box'] }, label: { type: 'string' } },
        required: ['side', 'kind'],
        additionalProperties: false,
      },
      { type: 'null' },
    ],
  },
  tuple: {
    type: 'array',
    prefixItems: [{ type: 'number' }, { $ref: '#/$defs/Tag' }, { type: ['string', 'null'] }],
    minItems: 3,
    maxItems: 3,
  },
  emptyTuple: { type: 'array', prefixItems: [], minItems: 0, maxItems: 0 },
  tupleWithUnknown: { type: 'array', prefixItems: [{ type: 'string' }, {}], minItems: 2, maxItems: 2 },
  oddKeys: {
    type: 'object',
    properties: { 'a"b': { type: 'number' }, 'line\nbreak': { type: 'string' }, constructor: { type: 'number' } },
    required: ['a"b', 'constructor'],
    additionalProperties: false,
  },
}

/** A small deterministic random source (mulberry32). */
function random(seed: number) {
  let a = seed >>> 0
  const next = () => {
    a = (a + 0x6d2b79f5) >>> 0
    let t = a
    t = Math.imul(t ^ (t >>> 15), t | 1)
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61)
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296
  }
  const int = (n: number) => Math.floor(next() * n)
  const pick = <T>(items: readonly T[]): T => items[int(items.length)]!
  return { next, int, pick }
}
type Random = ReturnType<typeof random>

const STRINGS = [
  '',
  'plain',
  'with "quotes"',
  'back\\slash',
  'tab\tnew\nline',
  '\u0000\u001f',
  'é ü 日本語 🎉',
  '\ud800 lone surrogate',
  'x'.repeat(100),
  `${'y'.repeat(60)}"`,
  '</script>\u2028\u2029',
]
const NUMBERS = [0, -0, 1, -1, 1.5, 1e21, 1e-7, Number.MAX_SAFE_INTEGER, -123456.789, 2 ** 53 + 2]

function resolve(schema: JsonSchema): JsonSchema {
  while (schema.$ref || (schema.allOf?.length === 1 && !schema.type))
    schema = schema.$ref ? defs[schema.$ref.slice(8)]! : schema.allOf[0]
  return schema
}

/** A random value of `schema`, made of plain data; object keys in declaration order. */
function conforming(schema: JsonSchema, r: Random, depth = 0): unknown {
  schema = resolve(schema)
  if ('const' in schema) return schema.const
  if (schema.enum) return r.pick(schema.enum)
  if (schema.anyOf) return conforming(r.pick(schema.anyOf), r, depth + 1)
  if (Array.isArray(schema.type)) return conforming({ ...schema, type: r.pick(schema.type) }, r, depth)
  if (schema['x-js'] === 'Date') return new Date(Date.UTC(2000 + r.int(60), r.int(12), 1 + r.int(28), r.int(24)))
  switch (schema.type) {
    case 'string':
      if (schema.format === 'email') return r.pick(['ada@example.com', 'a.b@c.org'])
      return r.pick(STRINGS.filter((s) => s.length >= (schema.minLength ?? 0)))
    case 'number':
      return r.pick(NUMBERS)
    case 'integer':
      return (schema.minimum ?? -500) + r.int(1000)
    case 'boolean':
      return r.next() < 0.5
    case 'null':
      return null
    case 'array': {
      if (schema.prefixItems) return schema.prefixItems.map((s: JsonSchema) => conforming(s, r, depth + 1))
      const n = depth > 4 ? 0 : r.int(4)
      return Array.from({ length: n }, () => conforming(schema.items, r, depth + 1))
    }
    case 'object': {
      const out: Record<string, unknown> = {}
      if (schema.additionalProperties && typeof schema.additionalProperties === 'object') {
        for (let i = r.int(3); i > 0; i--) out[`k${r.int(100)}`] = conforming(schema.additionalProperties, r, depth + 1)
        return out
      }
      const required = new Set(schema.required ?? [])
      for (const [name, prop] of Object.entries(schema.properties as Record<string, JsonSchema>)) {
        if (prop.not) continue
        if (!required.has(name)) {
          // Optional: absent, undefined, or present (a recursive one is absent past a few levels).
          const roll = depth > 3 ? 0 : r.next()
          if (roll < 0.25) continue
          if (roll < 0.4) {
            out[name] = undefined
            continue
          }
        }
        out[name] = conforming(prop, r, depth + 1)
      }
      return out
    }
  }
  // `{}`: anything JSON holds, with members JSON.stringify keeps.
  return r.pick([1, 'x', null, [1, { a: 2 }], { nested: { deep: true } }])
}

/** `value` with an undeclared property added to each object whose type declares its properties; `plain` is what is sent. */
function withExtras(schema: JsonSchema, value: unknown, r: Random): unknown {
  schema = resolve(schema)
  if (value === null || typeof value !== 'object' || value instanceof Date) return value
  if (Array.isArray(value)) {
    const items = schema.anyOf ? schema.anyOf.map(resolve).find((s: JsonSchema) => s.type === 'array') : schema
    if (items?.prefixItems) return value.map((v, i) => withExtras(items.prefixItems[i], v, r))
    return items ? value.map((v) => withExtras(items.items, v, r)) : value
  }
  const object = schema.anyOf ? schema.anyOf.map(resolve).find((s: JsonSchema) => s.type === 'object') : schema
  if (!object?.properties) return value
  const out: Record<string, unknown> = {}
  const record = object.additionalProperties && typeof object.additionalProperties === 'object'
  if (!record && r.next() < 0.5) out.extraFirst = 'leaked?'
  for (const [k, v] of Object.entries(value)) {
    out[k] = withExtras(record ? object.additionalProperties : (object.properties[k] ?? {}), v, r)
    if (!record && r.next() < 0.3) out[`extra_${k}`] = { password: 'hunter2' }
  }
  if (!record) out.id2 = 'never sent' // `x?: never` in User; undeclared elsewhere
  return out
}

describe('compileSerializer', () => {
  it('writes every conforming value exactly as JSON.stringify does', () => {
    const r = random(22)
    for (const [name, schema] of Object.entries(PRECISE)) {
      const serialize = compileSerializer(schema, defs)
      expect(serialize, name).toBeTypeOf('function')
      for (let i = 0; i < 300; i++) {
        const value = conforming(schema, r)
        const expected = JSON.stringify(value)
        const out = serialize!(value)
        // Keys are made in declaration order: byte equality, and so equal structures once parsed.
        expect(out, `${name}: ${expected}`).toBe(expected)
        expect(JSON.parse(out)).toEqual(JSON.parse(expected))
      }
    }
  })

  it('writes a value with properties its type does not declare whole, as JSON.stringify does (nothing is dropped)', () => {
    const r = random(7)
    for (const name of [
      'users',
      'user',
      'record',
      'optionalsFirst',
      'allOptional',
      'kindUnion',
      'nullableObject',
      'tuple',
    ]) {
      const serialize = compileSerializer(PRECISE[name]!, defs)!
      for (let i = 0; i < 200; i++) {
        const value = conforming(PRECISE[name]!, r)
        const extended = withExtras(PRECISE[name]!, value, r)
        expect(serialize(extended), name).toBe(JSON.stringify(extended))
      }
    }
    const users = compileSerializer(USERS, defs)!
    const row = { ...conformingUser(), password_hash: 'x', internal: { secret: 1 } }
    expect(JSON.parse(users({ users: [row], total: 1, next: null })).users[0]).toHaveProperty('password_hash', 'x')
  })

  it('keeps every property of a part typed unknown (the fallback writes it)', () => {
    const serialize = compileSerializer(PRECISE.withUnknown!, defs)!
    const value = { id: 1, data: { anything: [1, { goes: true }] }, pair: [1, 'extra'], hidden: 1 }
    expect(JSON.parse(serialize(value))).toEqual(value)
    const declared = { id: 1, data: value.data, pair: [1, 'extra'] }
    expect(serialize(declared)).toBe(JSON.stringify(declared))
  })

  it('writes a tuple of another length as the fallback does, undeclared properties kept', () => {
    const serialize = compileSerializer(PRECISE.tuple!, defs)!
    expect(serialize([1, { id: 2, label: 'x', extra: 1 }, null])).toBe('[1,{"id":2,"label":"x","extra":1},null]')
    for (const value of [[1, { id: 2, label: 'x', extra: 1 }], [1, { id: 2, label: 'x' }, 'a', 4], []])
      expect(serialize(value)).toBe(JSON.stringify(value))
  })

  it('tells objects apart by a property with fixed values, and leaves other values to the fallback', () => {
    const serialize = compileSerializer(PRECISE.shapes!, defs)!
    expect(serialize({ r: 2, kind: 'circle' })).toBe('{"kind":"circle","r":2}')
    expect(serialize({ kind: 'box', side: 1 })).toBe('{"side":1,"kind":"box"}')
    expect(serialize({ r: 2, kind: 'circle', side: 3 })).toBe('{"r":2,"kind":"circle","side":3}')
    for (const value of [{ kind: 'triangle', r: 1 }, { kind: 'circle', side: 1 }, { r: 1 }, 'circle'])
      expect(serialize(value)).toBe(JSON.stringify(value))
  })

  it("with the lifecycle's checked stringify as its fallback, fails as an untyped handler does", () => {
    const serialize = compileSerializer(PRECISE.withUnknown!, defs, stringify)!
    // A Map in a part typed unknown: the checked stringify makes it an object (JSON.stringify would write {}).
    expect(serialize({ id: 1, data: new Map([['a', 1]]) })).toBe('{"id":1,"data":{"a":1}}')
    expect(() => serialize({ id: Number.NaN })).toThrow(/NaN, which JSON cannot represent/)
    expect(() => serialize({ id: 1, data: { n: Number.POSITIVE_INFINITY } })).toThrow(/Infinity/)
    const users = compileSerializer(USERS, defs, stringify)!
    expect(() => users({ users: [{ ...conformingUser(), score: Number.NaN }], total: 1, next: null })).toThrow(
      /Member "score" of the returned value is NaN/,
    )
  })

  it('writes non-finite numbers as the fallback does (JSON.stringify: null), or throws what a checking fallback throws', () => {
    for (const bad of [Number.NaN, Number.POSITIVE_INFINITY, Number.NEGATIVE_INFINITY]) {
      const value = { users: [{ ...conformingUser(), score: bad, extra: 'x' }], total: 1, next: null }
      expect(compileSerializer(USERS, defs)!(value)).toBe(JSON.stringify(value))
      expect(compileSerializer({ type: 'number' }, defs)!(bad)).toBe('null')
      const checking = compileSerializer(USERS, defs, (v) =>
        JSON.stringify(v, (_k, n) => {
          if (typeof n === 'number' && !Number.isFinite(n)) throw new TypeError(`${n} is not JSON`)
          return n
        }),
      )!
      expect(() => checking(value)).toThrow(new TypeError(`${bad} is not JSON`))
    }
  })

  it('writes Dates with toJSON, invalid ones and strings as JSON.stringify does', () => {
    const user = compileSerializer({ $ref: '#/$defs/User' }, defs)!
    const value = { ...conformingUser(), createdAt: new Date(1234567890123), deletedAt: new Date(0) }
    expect(user(value)).toBe(JSON.stringify(value))
    expect(JSON.parse(user(value)).createdAt).toBe('2009-02-13T23:31:30.123Z')
    const invalid = { ...value, createdAt: new Date(Number.NaN) }
    expect(user(invalid)).toBe(JSON.stringify(invalid)) // `"createdAt":null`, the fallback's
    const text = { ...value, createdAt: '2020-01-01T00:00:00.000Z' }
    expect(user(text)).toBe(JSON.stringify(text))
    const date = compileSerializer(DATE, defs)!
    const r = random(5)
    const edges = [0, -1, 1, 999, -62198755200000, -62198755200001, 253402300799999, 253402300800000, 8.64e15, -8.64e15]
    for (const time of [...edges, ...Array.from({ length: 2000 }, () => Math.floor((r.next() - 0.3) * 1e14))]) {
      const at = new Date(time)
      expect(date(at), String(time)).toBe(JSON.stringify(at))
    }
    const luxonLike = { toJSON: () => '2021-05-05T00:00:00.000Z' }
    expect(date(luxonLike)).toBe('"2021-05-05T00:00:00.000Z"')
  })

  it('follows nested and recursive named types, and leaves too deep or cyclic values to the fallback', () => {
    const tree = compileSerializer({ $ref: '#/$defs/Node' }, defs)!
    let deep: { value: number; children: unknown[] } = { value: 0, children: [] }
    for (let i = 1; i < 50; i++) deep = { value: i, children: [deep, { value: -i, children: [] }] }
    expect(tree(deep)).toBe(JSON.stringify(deep))
    // Deeper than MAX_DEPTH: written whole by the fallback (the same text here, undeclared members kept).
    let deeper: { value: number; children: unknown[]; x?: number } = { value: 0, children: [], x: 1 }
    for (let i = 0; i < MAX_DEPTH + 5; i++) deeper = { value: i, children: [deeper] }
    expect(tree(deeper)).toBe(JSON.stringify(deeper))
    expect(tree(deeper)).toContain('"x":1')
    const cyclic: { value: number; children: unknown[] } = { value: 1, children: [] }
    cyclic.children.push(cyclic)
    expect(() => tree(cyclic)).toThrow(/circular/)
    const chain = { ...conformingUser(), manager: { ...conformingUser(), manager: conformingUser() } }
    // (`manager` comes last here, before `meta` in the type: the same structure, another key order.)
    expect(JSON.parse(compileSerializer({ $ref: '#/$defs/User' }, defs)!(chain))).toEqual(
      JSON.parse(JSON.stringify(chain)),
    )
  })

  it('never writes invalid JSON; a value that does not match its type is written whole by the fallback', () => {
    const r = random(99)
    const junk = (depth: number): unknown => {
      const pick = r.int(depth > 3 ? 12 : 17)
      switch (pick) {
        case 0:
          return r.pick(STRINGS)
        case 1:
          return r.pick([...NUMBERS, Number.NaN, Number.POSITIVE_INFINITY])
        case 2:
          return r.next() < 0.5
        case 3:
          return null
        case 4:
          return undefined
        case 5:
          return new Date(r.int(2) ? 0 : Number.NaN)
        case 6:
          return () => 1
        case 7:
          return Symbol('s')
        case 8:
          return new Map([[1, 2]])
        case 9:
          return r.pick(['admin', 'user', 1, 2, 3, true, 'fixed', 'red'])
        case 10: {
          const json = r.pick([1, 'x', undefined, { y: 1 }])
          return { toJSON: () => json }
        }
        case 11:
          return Object.create(null)
        case 12:
        case 13:
          return Array.from({ length: r.int(4) }, () => junk(depth + 1))
        default: {
          const out: Record<string, unknown> = {}
          const keys = ['id', 'name', 'role', 'users', 'total', 'next', 'tags', 'value', 'children', 'a', 'c', 'label']
          for (let i = r.int(6); i > 0; i--) out[r.pick(keys)] = junk(depth + 1)
          return out
        }
      }
    }
    let checked = 0
    let fellBack = 0
    for (const [name, schema] of Object.entries(PRECISE)) {
      let given: unknown[] = []
      const serialize = compileSerializer(schema, defs, (v) => {
        given.push(v)
        return JSON.stringify(v)
      })!
      for (let i = 0; i < 250; i++) {
        // Half of them: a conforming value with one member replaced by junk.
        const value = r.next() < 0.5 ? junk(0) : spoil(conforming(schema, r), r, () => junk(1))
        given = []
        let expected: string | undefined
        try {
          expected = JSON.stringify(value)
        } catch {
          continue // a BigInt-free junk never throws here, but stay honest
        }
        if (expected === undefined) {
          expect(() => serialize(value), name).toThrow(/not JSON/)
          continue
        }
        const out = serialize(value)
        expect(() => JSON.parse(out), `${name}: ${out}`).not.toThrow()
        // Written whole by the fallback, or by the serializer (which gave the fallback only parts it types as unknown).
        if (given.includes(value)) {
          expect(out).toBe(expected)
          fellBack++
        }
        checked++
      }
    }
    expect(checked).toBeGreaterThan(3000)
    expect(fellBack).toBeGreaterThan(500)
    expect(checked - fellBack).toBeGreaterThan(500)
  })

  it('answers undefined for types that say too little', () => {
    const imprecise: JsonSchema[] = [
      {},
      { type: 'object' },
      { type: 'object', properties: {}, additionalProperties: {} },
      { type: 'object', properties: { a: { type: 'string' } } }, // open object
      { type: 'object', properties: { a: { type: 'string' } }, additionalProperties: { type: 'number' } },
      { type: 'array', items: {} },
      { type: 'array', prefixItems: [{}, {}], minItems: 2, maxItems: 2 },
      { type: 'array', prefixItems: [{ type: 'number' }], minItems: 1, items: { type: 'string' } }, // [n, ...s[]]
      { anyOf: [{ $ref: '#/$defs/Tag' }, { $ref: '#/$defs/Address' }] },
      {
        anyOf: [
          { type: 'object', properties: { k: { const: 'a' } }, required: ['k'], additionalProperties: false },
          { type: 'object', properties: { k: { enum: ['a', 'b'] } }, required: ['k'], additionalProperties: false },
        ],
      },
      {
        anyOf: [
          { type: 'object', properties: { k: { const: 'a' } }, additionalProperties: false }, // k not required
          { type: 'object', properties: { k: { const: 'b' } }, required: ['k'], additionalProperties: false },
        ],
      },
      { anyOf: [{ type: 'string' }, {}] },
      { 'x-js': 'File' },
      { not: {} },
      { $ref: '#/$defs/Missing' },
      { const: { a: 1 } },
      { allOf: [{ $ref: '#/$defs/Tag' }, { $ref: '#/$defs/Address' }] },
    ]
    for (const schema of imprecise) expect(compileSerializer(schema, defs), JSON.stringify(schema)).toBeUndefined()
  })

  it('throws an explained TypeError when neither it nor the fallback can write a value', () => {
    const serialize = compileSerializer({ $ref: '#/$defs/Tag' }, defs)!
    expect(() => serialize(() => 1)).toThrow(new TypeError('A handler returned a value that is not JSON: function'))
    expect(() => serialize(undefined)).toThrow(TypeError)
    // A getter that throws is the handler's error, passed on as it is.
    const failing = {
      id: 1,
      get label(): string {
        throw new RangeError('from the getter')
      },
    }
    expect(() => serialize(failing)).toThrow(RangeError)
  })

  it('serializes the schemas the analyser writes from TypeScript return types', async () => {
    const { analyze, loadTypeScript } = await import('../../packages/routeless/src/compiler/analysis/analyze.ts')
    const ts = await loadTypeScript(process.cwd())
    const dir = mkdtempSync(path.join(tmpdir(), 'routeless-serializer-'))
    try {
      const file = path.join(dir, 'users.ts')
      writeFileSync(
        file,
        `export type Role = 'admin' | 'user'
export interface Tag { id: number; label: string }
export interface User {
  id: number
  name: string
  email?: string
  role: Role
  createdAt: Date
  deletedAt: Date | null
  score: number | null
  /** Its tags. */
  tags: Tag[]
  manager?: User
  meta: Record<string, string>
}
export class Default {
  async GET(): Promise<{ users: User[]; total: number; next: string | null }> { return null as any }
}
`,
      )
      const manifest = analyze(ts!, [{ file, module: 'users' }], dir)
      const returns = manifest.handlers['users.ts#Default.GET']!.returns!
      const serialize = compileSerializer(returns, manifest.$defs)!
      expect(serialize).toBeTypeOf('function')
      const user = {
        id: 1,
        name: 'Ada',
        role: 'admin',
        createdAt: new Date(0),
        deletedAt: null,
        score: 1.5,
        tags: [{ id: 2, label: 'x' }],
        manager: {
          id: 3,
          name: 'B',
          role: 'user',
          createdAt: new Date(1),
          deletedAt: null,
          score: null,
          tags: [],
          meta: {},
        },
        meta: { k: 'v' },
      }
      const value = { users: [user], total: 1, next: 'cursor' }
      expect(serialize(value)).toBe(JSON.stringify(value))
      const extended = { ...value, users: [{ ...user, password: 'x' }] }
      expect(serialize(extended)).toBe(JSON.stringify(extended))
      expect(checkReturn(returns, manifest.$defs)(value)).toBeUndefined()
    } finally {
      rmSync(dir, { recursive: true, force: true })
    }
  })
})

describe('checkReturn', () => {
  const check = checkReturn(USERS, defs)
  it('passes conforming values (Dates as JSON carries them)', () => {
    const r = random(3)
    for (let i = 0; i < 100; i++) expect(check(conforming(USERS, r))).toBeUndefined()
  })
  it('names the undeclared property, the non-finite number and the mismatch', () => {
    const user = conformingUser()
    expect(check({ users: [{ ...user, password: 'x' }], total: 1, next: null })).toBe(
      'member /users/0 of the returned value has a property "password" its type does not declare: it is not sent',
    )
    expect(check({ users: [user], total: Number.NaN, next: null })).toBe(
      'member /total of the returned value is NaN, which JSON cannot carry',
    )
    expect(check({ users: [{ ...user, score: Number.NEGATIVE_INFINITY }], total: 1, next: null })).toBe(
      'member /users/0/score of the returned value is -Infinity, which JSON cannot carry',
    )
    expect(check('a string')).toBe('the returned value must be object')
    expect(check({ users: [{ ...user, id: 0 }], total: 1, next: null })).toMatch(/^member \/users\/0\/id .*>= 1/)
    const cyclic: Record<string, unknown> = { users: [], total: 1, next: null }
    cyclic.self = cyclic
    expect(check(cyclic)).toMatch(
      /^member \/self\/self\/\S+ of the returned value is nested more than 200 levels deep \(a cycle\?\)$/,
    )
  })
})

function conformingUser() {
  return {
    id: 5,
    name: 'Ada',
    role: 'user',
    active: true,
    createdAt: new Date(0),
    deletedAt: null,
    score: 2,
    tags: [{ id: 1, label: 't' }],
    meta: {},
    level: 1,
  }
}

/** `value` with one member somewhere inside replaced by `make()`. */
function spoil(value: unknown, r: Random, make: () => unknown): unknown {
  if (value === null || typeof value !== 'object' || value instanceof Date) return make()
  if (Array.isArray(value)) {
    if (value.length === 0) return make()
    const copy = [...value]
    const i = r.int(copy.length)
    copy[i] = r.next() < 0.5 ? make() : spoil(copy[i], r, make)
    return copy
  }
  const keys = Object.keys(value)
  if (keys.length === 0) return make()
  const copy: Record<string, unknown> = { ...value }
  const k = r.pick(keys)
  copy[k] = r.next() < 0.5 ? make() : spoil(copy[k], r, make)
  return copy
}
