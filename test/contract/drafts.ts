/** Arbitraries of whole requests of one operation: valid ones, and ones that break exactly one rule. */
import fc from 'fast-check'
import { valid } from './arbitrary.ts'
import { flatten, type OpenApiDocument, type Operation, type Parameter } from './document.ts'
import { invalid } from './violations.ts'
import type { Draft } from './wire.ts'

const BODILESS = new Set(['GET', 'HEAD'])
const LOCATIONS = { path: 'path', query: 'query', header: 'header' } as const

export function validDraft(doc: OpenApiDocument, op: Operation): fc.Arbitrary<Draft> {
  const group = (where: 'path' | 'query' | 'header') => {
    const params = op.parameters.filter((p) => p.in === where)
    return fc.record(
      Object.fromEntries(
        params.map((p) => [
          p.name,
          where === 'header'
            ? header(doc, p)
            : // an empty value (`?page_size=`, as a form sends) where the document allows it
              p.allowEmptyValue
              ? fc.oneof({ arbitrary: valid(doc, p.schema), weight: 4 }, { arbitrary: fc.constant(''), weight: 1 })
              : valid(doc, p.schema),
        ]),
      ),
      {
        requiredKeys: params.filter((p) => p.required).map((p) => p.name),
      },
    )
  }
  // fetch sends no body with GET or HEAD (a document that gives them one is reported by `noBodyOn`).
  const media = BODILESS.has(op.method) ? [] : (op.body?.media ?? [])
  const body =
    media.length === 0
      ? fc.constant(undefined)
      : fc.oneof(...media.map((m) => valid(doc, m.schema).map((value) => ({ media: m, value }))))
  return fc.record({
    path: group(LOCATIONS.path),
    query: group(LOCATIONS.query),
    header: group(LOCATIONS.header),
    body: media.length > 0 && !op.body?.required ? fc.option(body, { nil: undefined, freq: 4 }) : body,
  }) as fc.Arbitrary<Draft>
}

/** A header's value: printable ASCII without spaces at either end, where its schema leaves the string free. */
function header(doc: OpenApiDocument, p: Parameter): fc.Arbitrary<unknown> {
  const s = flatten(doc, p.schema)
  const free = typeof s === 'object' && s.type === 'string' && !s.pattern && !s.format && !s.enum && !('const' in s)
  return free ? fc.stringMatching(/^[\x21-\x7e]{1,32}$/) : valid(doc, p.schema)
}

/** A valid request with one parameter or the body made invalid, or something required left out; undefined if none. */
export function invalidDraft(doc: OpenApiDocument, op: Operation): fc.Arbitrary<Draft> | undefined {
  const base = validDraft(doc, op)
  const mutations: fc.Arbitrary<Draft>[] = []
  for (const p of op.parameters) {
    if (p.in === 'cookie') continue
    const where = LOCATIONS[p.in as keyof typeof LOCATIONS]
    const refused = invalid(doc, p.schema)
    // `allowEmptyValue`: a value written empty on the wire (`''`, an empty list) is taken, not refused
    const bad = p.allowEmptyValue ? refused?.filter((v) => !writtenEmpty(v)) : refused
    if (bad) mutations.push(fc.tuple(base, bad).map(([d, v]) => replace(d, where, p, v)))
    if (p.required && p.in !== 'path') mutations.push(base.map((d) => replace(d, where, p, undefined)))
  }
  for (const m of BODILESS.has(op.method) ? [] : (op.body?.media ?? [])) {
    const bad = invalid(doc, m.schema)
    if (bad) mutations.push(fc.tuple(base, bad).map(([d, value]) => ({ ...d, body: { media: m, value } })))
  }
  if (op.body?.required && !BODILESS.has(op.method)) mutations.push(base.map((d) => ({ ...d, body: undefined })))
  return mutations.length > 0 ? fc.oneof(...mutations) : undefined
}

/** True when `value` is written as `name=` or not at all in a query (see `wire.ts`). */
function writtenEmpty(value: unknown): boolean {
  if (value === '' || value === null || value === undefined) return true
  return Array.isArray(value) && value.every((v) => v === '' || v === null || v === undefined)
}

function replace(d: Draft, where: 'path' | 'query' | 'header', p: Parameter, value: unknown): Draft {
  const group = { ...d[where] }
  if (value === undefined) delete group[p.name]
  else group[p.name] = value
  return { ...d, [where]: group }
}
