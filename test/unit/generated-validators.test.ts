/**
 * The helpers generated code calls (runtime/handlers/generated-validators.ts, runtime/contract/formats.ts) decide as the Ajv and ajv-formats code
 * they stand in for: the same answer on the same inputs, edge values included.
 */
import { fullFormats } from 'ajv-formats/dist/formats.js'
import ajvEqual from 'ajv/dist/runtime/equal.js'
import ajvUcs2length from 'ajv/dist/runtime/ucs2length.js'
import { describe, expect, it } from 'vitest'
import { FORMATS, formatExport } from '../../packages/routeless/src/runtime/contract/formats.ts'
import * as worker from '../../packages/routeless/src/worker.ts'
import { equal, ucs2length } from '../../packages/routeless/src/runtime/handlers/generated-validators.ts'

const unwrap = <F>(m: unknown) => ((m as { default?: F }).default ?? m) as F
const STRINGS = [
  '',
  'x',
  '2024-02-29',
  '2023-02-29',
  '2024-13-01',
  '2024-01-31T09:05:00Z',
  '2024-01-31t09:05:00.123+01:00',
  '2024-01-31 09:05:00-23:59',
  '2024-01-31T09:05:00',
  '2024-01-31T23:59:60Z',
  '2024-01-31T22:59:60-01:00',
  '2024-01-31T25:00:00Z',
  '09:05:00Z',
  '09:05:00',
  '23:59:60+00:00',
  'https://example.com/a?b=c#d',
  'mailto:a@b.co',
  'urn:isbn:0451450523',
  'http://[::1]:80/',
  'http://[fe80::1%25eth0]/',
  'not a uri',
  '//example.com',
  'aGVsbG8=',
  'aGVsbG8',
  '^a+$',
  '(unclosed',
  'a\\Z',
  '😀😀',
]
const NUMBERS = [0, 1, -1, 1.5, 2 ** 31, -(2 ** 31), 2 ** 31 - 1, 2 ** 53, Number.NaN]

describe('the function formats', () => {
  for (const [name, check] of Object.entries(FORMATS)) {
    it(`${name}: as ajv-formats decides`, () => {
      const theirs = (fullFormats as Record<string, unknown>)[name] as
        | ((s: string) => boolean)
        | { validate: (v: unknown) => boolean }
      const run = (c: typeof theirs | typeof check, v: unknown) =>
        typeof c === 'function'
          ? (c as (v: unknown) => boolean)(v)
          : (c as { validate: (v: unknown) => boolean }).validate(v)
      for (const v of typeof check === 'function' ? STRINGS : NUMBERS.filter(Number.isFinite))
        expect(run(check, v), `${name} ${v}`).toBe(run(theirs, v))
      // Where they differ, on purpose: no number format takes NaN or ±Infinity (JSON cannot carry them)
      if (typeof check !== 'function')
        for (const v of [Number.NaN, Number.POSITIVE_INFINITY, Number.NEGATIVE_INFINITY])
          expect(run(check, v), `${name} ${v}`).toBe(false)
    })
  }
})

describe("the function formats a Worker's entry imports", () => {
  it('are each exported by routeless/worker under the name a Worker entry imports it by', () => {
    for (const [name, check] of Object.entries(FORMATS))
      expect((worker as Record<string, unknown>)[formatExport(name)], name).toBe(check)
  })
})

describe('the runtime helpers', () => {
  it('ucs2length counts code points as Ajv does (a lone surrogate counts once)', () => {
    for (const s of [...STRINGS, '\ud83d', 'a\ude00b', '\ud83d\ud83d\ude00'])
      expect(ucs2length(s), s).toBe(unwrap<(s: string) => number>(ajvUcs2length)(s))
  })

  it('equal compares JSON values as fast-deep-equal does', () => {
    const values = [
      null,
      0,
      -0,
      1,
      '1',
      true,
      Number.NaN,
      [],
      [1],
      [1, [2]],
      {},
      { a: 1 },
      { a: 1, b: [1] },
      { b: [1], a: 1 },
      { a: undefined },
      { b: undefined },
    ]
    for (const a of values)
      for (const b of values)
        expect(equal(a, b), `${JSON.stringify(a)} ${JSON.stringify(b)}`).toBe(
          unwrap<(a: unknown, b: unknown) => boolean>(ajvEqual)(a, b),
        )
  })
})
