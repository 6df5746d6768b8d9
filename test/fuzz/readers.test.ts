/**
 * The readers under generated input: the query string, urlencoded and JSON bodies. Each answers or throws the
 * framework's 4xx, never anything else, within a time limit per input, and leaves every prototype as it was; where a
 * reading has a writer, what is written reads back the same.
 */
import fc from 'fast-check'
import { afterEach, describe, expect, it } from 'vitest'
import { readBody } from '../../packages/routeless/src/runtime/lifecycle/body.ts'
import { parseQuery } from '../../packages/routeless/src/runtime/lifecycle/query.ts'
import { budget, edgy, escaped, params, polluted } from './_fuzz.ts'

afterEach(() => expect(polluted()).toBeUndefined())

const post = (body: BodyInit, type: string) =>
  new Request('http://x/', { method: 'POST', body, headers: { 'content-type': type } })

/** The URL standard's reading of pairs, grouped as routeless groups them (written apart from it, as the reference). */
function grouped(entries: Iterable<[string, unknown]>): Record<string, unknown> {
  const out: Record<string, unknown> = {}
  for (const [raw, value] of entries) {
    const list = raw.endsWith('[]')
    const key = list ? raw.slice(0, -2) : raw
    if (key === '__proto__') continue
    const prev = Object.hasOwn(out, key) ? out[key] : undefined
    if (prev === undefined) out[key] = list ? [value] : value
    else if (Array.isArray(prev)) prev.push(value)
    else out[key] = [prev, value]
  }
  return out
}

const plain = (kwargs: object | undefined) => Object.fromEntries(Object.entries(kwargs ?? {}))

/** A query as a URL carries it: generated text, then what the URL parser makes of it (percent-encoded, no `#`). */
const query = fc
  .array(fc.tuple(edgy(), fc.option(edgy(), { nil: undefined })), { maxLength: 6 })
  .map((pairs) => pairs.map(([k, v]) => (v === undefined ? k : `${k}=${v}`)).join('&'))
  .map((raw) => new URL(`http://x/?${raw.replace(/#/g, '%23')}`).search.slice(1))

const decodeOrThrow = (bytes: Uint8Array) => new TextDecoder('utf-8', { fatal: true }).decode(bytes)

describe('the query string', () => {
  it(
    'reads as the URL standard does, on the fast path and the decoding one alike',
    () => {
      fc.assert(
        fc.property(query, (q) => {
          const reference = grouped(new URL(`http://x/?${q}`).searchParams)
          expect(plain(parseQuery(q))).toEqual(reference)
        }),
        params(600),
      )
    },
    budget(600, 20_000),
  )

  it(
    'reads back what URLSearchParams writes',
    () => {
      const key = fc
        .string({ unit: 'grapheme', minLength: 1, maxLength: 8 })
        .filter((k) => !k.endsWith('[]') && k !== '__proto__')
      fc.assert(
        fc.property(
          fc.dictionary(key, fc.array(fc.string({ unit: 'grapheme', maxLength: 8 }), { minLength: 1, maxLength: 3 })),
          (dict) => {
            const written = new URLSearchParams()
            for (const [k, values] of Object.entries(dict)) for (const v of values) written.append(k, v)
            const expected = Object.fromEntries(Object.entries(dict).map(([k, v]) => [k, v.length === 1 ? v[0] : v]))
            expect(plain(parseQuery(written.toString()))).toEqual(expected)
          },
        ),
        params(300),
      )
    },
    budget(300, 20_000),
  )
})

describe('an urlencoded body', () => {
  it(
    'reads as the query string does (a leading ? included), or answers 400 for bytes that are not UTF-8',
    async () => {
      const bytes = fc.oneof(
        query.map((q) => new TextEncoder().encode(q)),
        fc.uint8Array({ maxLength: 64 }),
      )
      await fc.assert(
        fc.asyncProperty(bytes, async (body) => {
          let fields: object | undefined
          try {
            fields = (await readBody(post(body, 'application/x-www-form-urlencoded'), { limit: 1 << 20 })).fields
          } catch (error) {
            expect(escaped(error)).toBeUndefined()
            expect(() => decodeOrThrow(body)).toThrow() // the only 4xx a form body has: it is not UTF-8
            return
          }
          const text = decodeOrThrow(body)
          expect(plain(fields)).toEqual(text === '' ? {} : plain(parseQuery(text)))
        }),
        params(300),
      )
    },
    budget(300, 20_000),
  )
})

/** JSON text with numbers as written (beyond a double, below its precision, long), keys that aim at prototypes. */
const jsonText: fc.Arbitrary<string> = fc.letrec<{ value: string }>((tie) => ({
  value: fc.oneof(
    { depthSize: 'small', withCrossShrink: true },
    fc.constantFrom('1e999', '-1E+400', '1e308', '1e-999', '0', '-0', '12.5', '1'.repeat(320), '9007199254740993'),
    fc.constantFrom('null', 'true', 'false', '"x"', '"\\u0000"', '"__proto__"'),
    fc.array(tie('value'), { maxLength: 4 }).map((items) => `[${items.join(',')}]`),
    fc
      .array(
        fc.tuple(
          fc.oneof(
            fc.constantFrom('__proto__', 'constructor', 'prototype', 'user', 'age'),
            fc.string({ maxLength: 4 }),
          ),
          tie('value'),
        ),
        { maxLength: 4 },
      )
      .map((members) => `{${members.map(([k, v]) => `${JSON.stringify(k)}:${v}`).join(',')}}`),
  ),
})).value

function hasNonFinite(value: unknown): boolean {
  if (typeof value === 'number') return !Number.isFinite(value)
  if (typeof value !== 'object' || value === null) return false
  return Object.values(value).some(hasNonFinite)
}

describe('a JSON body', () => {
  it(
    'answers 400 for a number beyond a double anywhere, and reads every other value as JSON.parse does',
    async () => {
      await fc.assert(
        fc.asyncProperty(jsonText, async (text) => {
          const parsed = JSON.parse(text)
          try {
            const { body, fields } = await readBody(post(text, 'application/json'), { limit: 1 << 20 })
            expect(hasNonFinite(parsed)).toBe(false)
            expect(body).toEqual(parsed)
            if (fields) expect(Object.keys(fields)).toEqual(Object.keys(parsed).filter((k) => k !== '__proto__'))
          } catch (error) {
            expect(escaped(error)).toBeUndefined()
            expect(hasNonFinite(parsed)).toBe(true)
            expect((error as Error).message).toMatch(
              /^Malformed JSON body: (the number at .* is beyond a double's range|Maximum call stack size exceeded)$/,
            )
          }
        }),
        params(300),
      )
    },
    budget(300, 20_000),
  )

  it(
    'reads back what JSON.stringify writes',
    async () => {
      await fc.assert(
        fc.asyncProperty(fc.jsonValue(), async (value) => {
          const text = JSON.stringify(value)
          const { body } = await readBody(post(text, 'application/json'), { limit: 1 << 22 })
          expect(body).toEqual(JSON.parse(text))
        }),
        params(200),
      )
    },
    budget(200, 20_000),
  )

  it(
    'answers any bytes with a value or a 4xx',
    async () => {
      const bytes = fc.oneof(
        fc.uint8Array({ maxLength: 64 }),
        jsonText.map((t) => new TextEncoder().encode(t.slice(0, Math.max(1, t.length - 2)))),
      )
      await fc.assert(
        fc.asyncProperty(bytes, async (body) => {
          await readBody(post(body, 'application/json'), { limit: 1 << 20 }).catch((error) =>
            expect(escaped(error)).toBeUndefined(),
          )
        }),
        params(300),
      )
    },
    budget(300, 20_000),
  )
})
