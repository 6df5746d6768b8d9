/**
 * Return-type serializers (compiler/codegen/serializer.ts) against JSON.stringify, the lifecycle's checked `stringify` (what
 * routeless answers with today) and fast-json-stringify (Fastify's, from the same schema), in ns per serialized value.
 * Run: node --import tsx bench/serializer.ts   (figures go into docs/BENCHMARKS.md by hand)
 * Options: --rounds=15 --ms=200 (time per peer and round).
 */
import { isDeepStrictEqual } from 'node:util'
import fastJson from 'fast-json-stringify'
import { compileSerializer } from '../packages/routeless/src/compiler/codegen/serializer.ts'
import type { JsonSchema } from '../packages/routeless/src/runtime/contract/manifest.ts'
import { stringify } from '../packages/routeless/src/runtime/lifecycle/json.ts'

const arg = (name: string, fallback: number) =>
  Number(process.argv.find((a) => a.startsWith(`--${name}=`))?.split('=')[1] ?? fallback)
const ROUNDS = arg('rounds', 15)
const MS = arg('ms', 200)

// The schemas the analyser writes for `{ users: User[]; total: number; next: string | null }` and `{ user: string;
// post: string; x: string }` (the shape of workload (b) in docs/BENCHMARKS.md).
const DATE = { type: 'string', format: 'date-time', 'x-js': 'Date' }
const defs: Record<string, JsonSchema> = {
  Tag: {
    type: 'object',
    properties: { id: { type: 'number' }, label: { type: 'string' } },
    required: ['id', 'label'],
    additionalProperties: false,
  },
  User: {
    type: 'object',
    properties: {
      id: { type: 'number' },
      name: { type: 'string' },
      email: { type: 'string' },
      role: { enum: ['admin', 'user'] },
      active: { type: 'boolean' },
      createdAt: DATE,
      deletedAt: { anyOf: [{ type: 'null' }, DATE] },
      score: { type: ['null', 'number'] },
      tags: { type: 'array', items: { $ref: '#/$defs/Tag' } },
    },
    required: ['id', 'name', 'role', 'active', 'createdAt', 'deletedAt', 'score', 'tags'],
    additionalProperties: false,
  },
}
const usersSchema = {
  type: 'object',
  properties: {
    users: { type: 'array', items: { $ref: '#/$defs/User' } },
    total: { type: 'number' },
    next: { type: ['null', 'string'] },
  },
  required: ['users', 'total', 'next'],
  additionalProperties: false,
}
const smallSchema = {
  type: 'object',
  properties: { user: { type: 'string' }, post: { type: 'string' }, x: { type: 'string' } },
  required: ['user', 'post', 'x'],
  additionalProperties: false,
}

const users = (n: number) => ({
  users: Array.from({ length: n }, (_, i) => ({
    id: 1000 + i,
    name: `User Number ${i}`,
    email: `user${i}@example.com`,
    role: i % 7 === 0 ? 'admin' : 'user',
    active: i % 3 !== 0,
    createdAt: new Date(Date.UTC(2024, i % 12, 1 + (i % 28))),
    deletedAt: i % 10 === 0 ? new Date(Date.UTC(2025, 0, 1)) : null,
    score: i % 5 === 0 ? null : i * 1.25,
    tags: [
      { id: i, label: 'customer' },
      { id: i + 1, label: 'tier "gold"' },
    ],
  })),
  total: n,
  next: 'cursor-abc',
})

/** fast-json-stringify takes its `$ref`s from the schema's own `$defs` and writes a Date given as a date-time string. */
function forFastJson(schema: JsonSchema): JsonSchema {
  const strip = (s: unknown): unknown =>
    Array.isArray(s)
      ? s.map(strip)
      : s && typeof s === 'object'
        ? Object.fromEntries(
            Object.entries(s)
              .filter(([k]) => k !== 'x-js')
              .map(([k, v]) => [k, strip(v)]),
          )
        : s
  return { ...(strip(schema) as JsonSchema), $defs: strip(defs) }
}

interface Workload {
  name: string
  value: unknown
  schema: JsonSchema
}
const workloads: Workload[] = [
  { name: 'users list (50 users, Dates, nested tags)', value: users(50), schema: usersSchema },
  {
    name: 'users list, rows with 4 extra columns',
    value: {
      ...users(50),
      users: users(50).users.map((u) => ({ ...u, password_hash: 'x'.repeat(60), org_id: 7, updated_at: null, v: 3 })),
    },
    schema: usersSchema,
  },
  { name: 'small object {user, post, x}', value: { user: '123', post: '456', x: '1' }, schema: smallSchema },
]

let sink = 0
function time(fn: (v: unknown) => string | undefined, value: unknown, ms: number): number {
  let n = 0
  const start = process.hrtime.bigint()
  const end = start + BigInt(ms * 1e6)
  let now = start
  while (now < end) {
    for (let i = 0; i < 64; i++) sink += fn(value)!.length
    n += 64
    now = process.hrtime.bigint()
  }
  return Number(now - start) / n
}

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[xs.length >> 1]!

console.log(`node ${process.version}, ${ROUNDS} rounds of ${MS} ms per peer, peers interleaved; median ns/op`)
for (const w of workloads) {
  const compiled = compileSerializer(w.schema, defs, stringify)
  if (!compiled) throw new Error(`no serializer for ${w.name}`)
  const peers: [string, (v: unknown) => string | undefined][] = [
    ['routeless compiled serializer', compiled],
    ['JSON.stringify', JSON.stringify],
    ['checked stringify (runtime/lifecycle/response.ts)', stringify],
    ['fast-json-stringify (same schema)', fastJson(forFastJson(w.schema)) as (v: unknown) => string],
  ]
  // The same JSON from every peer, but that the stringify peers keep the extra columns (fast-json-stringify writes
  // required properties first: compared as structures).
  const typed = JSON.parse(compiled(w.value))
  const whole = JSON.parse(JSON.stringify(w.value))
  for (const [name, fn] of peers) {
    const keeps = name === 'JSON.stringify' || name.startsWith('checked')
    if (!isDeepStrictEqual(JSON.parse(fn(w.value)!), keeps ? whole : typed))
      throw new Error(`${name} writes other JSON for ${w.name}: ${fn(w.value)!.slice(0, 300)}`)
  }
  const times = new Map<string, number[]>(peers.map(([name]) => [name, []]))
  for (let round = 0; round < ROUNDS; round++)
    for (let i = 0; i < peers.length; i++) {
      const [name, fn] = peers[(i + round) % peers.length]!
      times.get(name)!.push(time(fn, w.value, MS))
    }
  const base = median(times.get('JSON.stringify')!)
  console.log(`\n${w.name}: ${compiled(w.value).length} bytes (JSON.stringify: ${JSON.stringify(w.value).length})`)
  console.log('| Peer | ns/op | vs JSON.stringify |\n| --- | ---: | ---: |')
  for (const [name] of peers) {
    const ns = median(times.get(name)!)
    console.log(`| ${name} | ${ns.toFixed(0)} | ${(ns / base).toFixed(2)}× |`)
  }
}
if (sink === 0) console.log('')
