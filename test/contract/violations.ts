/**
 * Values a schema refuses, as fast-check arbitraries: the wrong type, a value outside an enum or a const, a string
 * that breaks its pattern or length, a number out of range, too few or too many items, a required property left out,
 * a property the schema forbids, or one property made invalid. Whether the request that carries it really violates
 * the document (a `5` sent as a form field is also the string "5") is decided later, on the wire (`wire.ts`).
 */
import fc from 'fast-check'
import { valid } from './arbitrary.ts'
import { flatten, type OpenApiDocument, type Schema, typesOf } from './document.ts'

const SAMPLES: Record<string, unknown[]> = {
  null: [null],
  boolean: [true, false],
  integer: [7, -3],
  number: [2.5],
  string: ['not-valid', ''],
  array: [[], ['x']],
  object: [{}, { x: 1 }],
}

/** An arbitrary of invalid values, or undefined when the schema accepts anything. */
export function invalid(doc: OpenApiDocument, schema: Schema, depth = 0): fc.Arbitrary<unknown> | undefined {
  const s = flatten(doc, schema)
  if (s === true) return undefined
  if (s === false) return fc.constant('anything')
  const options: fc.Arbitrary<unknown>[] = []
  const allowed = typesOf(doc, s)
  const wrongTypes = Object.entries(SAMPLES)
    .filter(([type]) => !allowed.has(type) && !(type === 'integer' && allowed.has('number')))
    .flatMap(([, values]) => values)
  if (wrongTypes.length > 0 && allowed.size < 7) options.push(fc.constantFrom(...wrongTypes))
  if ('const' in s || Array.isArray(s.enum)) {
    const accepted = 'const' in s ? [s.const] : s.enum
    options.push(
      fc.string({ minLength: 1, maxLength: 12 }).filter((x) => !accepted.includes(x)),
      fc.constant('NOT_A_MEMBER'),
    )
  }
  if (typeof s.pattern === 'string') {
    const pattern = new RegExp(s.pattern, 'u')
    options.push(fc.constantFrom('', ' ', '!!', '\u00e9\u00e9', 'zz-zz').filter((x) => !pattern.test(x)))
  }
  if (typeof s.maxLength === 'number') options.push(fc.constant('x'.repeat(s.maxLength + 1)))
  if (typeof s.minLength === 'number' && s.minLength > 0) options.push(fc.constant('x'.repeat(s.minLength - 1)))
  if (typeof s.minimum === 'number') options.push(fc.constant(Math.floor(s.minimum) - 1))
  if (typeof s.maximum === 'number') options.push(fc.constant(Math.ceil(s.maximum) + 1))
  if (s.format === 'date-time') options.push(fc.constant('yesterday'))
  if (s.format === 'email') options.push(fc.constant('no-at-sign'))
  if (s.format === 'uuid') options.push(fc.constant('not-a-uuid'))
  if (allowed.has('array') && allowed.size === 1) arrayViolations(doc, s, depth, options)
  if (allowed.has('object') && allowed.size === 1 && depth < 4) objectViolations(doc, s, depth, options)
  return options.length > 0 ? fc.oneof(...options) : undefined
}

function arrayViolations(doc: OpenApiDocument, s: Record<string, any>, depth: number, out: fc.Arbitrary<unknown>[]) {
  const item = valid(doc, s.items ?? {}, depth + 1)
  if (typeof s.minItems === 'number' && s.minItems > 0)
    out.push(fc.array(item, { minLength: s.minItems - 1, maxLength: s.minItems - 1 }))
  if (typeof s.maxItems === 'number' && s.maxItems < 60)
    out.push(fc.array(item, { minLength: s.maxItems + 1, maxLength: s.maxItems + 1 }))
  const bad = s.items === undefined ? undefined : invalid(doc, s.items, depth + 1)
  if (bad) out.push(fc.tuple(fc.array(item, { maxLength: 2 }), bad).map(([good, one]) => [...good, one]))
}

function objectViolations(doc: OpenApiDocument, s: Record<string, any>, depth: number, out: fc.Arbitrary<unknown>[]) {
  const whole = valid(doc, s, depth) as fc.Arbitrary<Record<string, unknown>>
  const required: string[] = s.required ?? []
  if (required.length > 0)
    out.push(
      fc.tuple(whole, fc.constantFrom(...required)).map(([o, name]) => {
        const { [name]: _, ...rest } = o
        return rest
      }),
    )
  if (s.additionalProperties === false) out.push(whole.map((o) => ({ ...o, contract_test_unknown_property: 'x' })))
  for (const [name, sub] of Object.entries<Schema>(s.properties ?? {})) {
    const flat = flatten(doc, sub)
    if (typeof flat === 'object' && flat.not && Object.keys(flat.not).length === 0)
      out.push(whole.map((o) => ({ ...o, [name]: 'x' })))
    else {
      const bad = invalid(doc, sub, depth + 1)
      if (bad) out.push(fc.tuple(whole, bad).map(([o, value]) => ({ ...o, [name]: value })))
    }
  }
}
