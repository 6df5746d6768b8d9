/**
 * The multipart reader under generated input. Its part counter must read every generated Content-Type as the
 * parser does (or refuse it with a 400), and never count fewer parts than the parser finds: else a body past the part
 * limit is parsed in full. What FormData writes reads back the same; any bytes answer with fields or a 4xx.
 */
import fc from 'fast-check'
import { afterEach, describe, expect, it } from 'vitest'
import { readBody } from '../../packages/routeless/src/runtime/lifecycle/body.ts'
import { boundaryOf, countParts } from '../../packages/routeless/src/runtime/lifecycle/multipart.ts'
import { budget, escaped, params, polluted } from './_fuzz.ts'

afterEach(() => expect(polluted()).toBeUndefined())

const post = (body: BodyInit, type?: string) =>
  new Request('http://x/', { method: 'POST', body, headers: type ? { 'content-type': type } : {} })

/** The parser's reading (undici's, as `Response.formData()`), or undefined where it fails. */
async function parsed(body: Uint8Array, type: string): Promise<[string, string][] | undefined> {
  try {
    const form = await new Response(body as BodyInit, { headers: { 'content-type': type } }).formData()
    return [...form].map(([k, v]) => [k, typeof v === 'string' ? v : `file ${v.name} ${v.size}`])
  } catch {
    return undefined
  }
}

const BOUNDARIES = ['B', 'C', 'B"C', 'b'.repeat(71), 'a b', 'x=y', '----x', '']

/** A Content-Type made of the pieces that parsers have read differently. */
const contentType = fc
  .tuple(
    fc.constantFrom('multipart/form-data', 'Multipart/Form-Data', 'multipart/form-data '),
    fc.array(
      fc.oneof(
        fc.constantFrom(...BOUNDARIES).map((b) => `; boundary=${b}`),
        fc.constantFrom(...BOUNDARIES).map((b) => `; boundary="${b}"`),
        fc.constantFrom(
          '; Boundary=B',
          ';boundary=B',
          '; boundary =B',
          '; boundary= B',
          '; boundary=B ',
          '; boundary*=B',
        ),
        fc.constantFrom('; boundary="B\\"C"', '; boundary="B\\C"', '; x="; boundary=C"', '; x="a;b"', '; x=\\"'),
        fc.constantFrom(';', '; ', '; charset=utf-8', '; x=y', '; x', ';;', '; x="', '\t', ' '),
        fc.string({ maxLength: 6 }).map((s) => `; ${s}`),
      ),
      { maxLength: 4 },
    ),
  )
  .map(([type, parameters]) => type + parameters.join(''))

/** A body with `parts` fields delimited by `boundary`, sometimes with a preamble, LF line ends or no closing line. */
const body = fc
  .record({
    boundary: fc.constantFrom(...BOUNDARIES),
    parts: fc.nat({ max: 4 }),
    preamble: fc.constantFrom('', '\r\n', 'preamble\r\n', '\r\n\r\n'),
    eol: fc.constantFrom('\r\n', '\r\n', '\n'),
    close: fc.boolean(),
  })
  .map(({ boundary, parts, preamble, eol, close }) => {
    let text = preamble
    for (let i = 0; i < parts; i++)
      text += `--${boundary}${eol}Content-Disposition: form-data; name="f${i}"${eol}${eol}v${i}${eol}`
    if (close) text += `--${boundary}--${eol}`
    return new TextEncoder().encode(text)
  })

describe('the part counter', () => {
  it(
    'reads the boundary of every Content-Type as the parser does, or refuses it with a 400',
    async () => {
      await fc.assert(
        fc.asyncProperty(contentType, body, async (type, bytes) => {
          let boundary: string
          try {
            boundary = boundaryOf(type)
          } catch (error) {
            expect(escaped(error)).toBeUndefined()
            expect((error as Error).message).toMatch(/^Malformed multipart Content-Type: /)
            return
          }
          // What the parser reads from the header is what it reads given the boundary alone, written plainly.
          const given = await parsed(bytes, type)
          expect(given).toEqual(await parsed(bytes, `multipart/form-data; boundary="${boundary}"`))
          // And it finds no more parts than were counted.
          expect(given?.length ?? 0).toBeLessThanOrEqual(countParts(bytes, boundary))
        }),
        params(400),
      )
    },
    budget(400, 20_000),
  )

  it(
    'answers a body over the part limit with a 413 and never parses it',
    async () => {
      await fc.assert(
        fc.asyncProperty(contentType, body, async (type, bytes) => {
          const found = (await parsed(bytes, type))?.length ?? 0
          try {
            const { fields } = await readBody(post(bytes, type), { limit: 1 << 20, parts: Math.max(0, found - 1) })
            expect(found).toBe(0) // a body of parts the parser finds is over this limit
            expect(Object.keys(fields ?? {})).toEqual([])
          } catch (error) {
            expect(escaped(error)).toBeUndefined()
          }
        }),
        params(300),
      )
    },
    budget(300, 20_000),
  )
})

describe('a multipart body', () => {
  const name = fc.stringMatching(/^[\w.[\]\- ]{1,8}$/).filter((n) => !n.endsWith('[]') && n !== '__proto__')
  const value = fc.oneof(
    fc.string({ unit: 'grapheme', maxLength: 12 }),
    fc
      .tuple(fc.stringMatching(/^[\w.]{1,8}$/), fc.uint8Array({ maxLength: 16 }))
      .map(([filename, bytes]) => new File([bytes], filename)),
  )

  it(
    'reads back what FormData writes: text (its line ends as CRLF) and files',
    async () => {
      await fc.assert(
        fc.asyncProperty(fc.array(fc.tuple(name, value), { maxLength: 5 }), async (entries) => {
          const form = new FormData()
          for (const [k, v] of entries) form.append(k, v)
          const { fields } = await readBody(post(form), { limit: 1 << 20 })
          const expected: Record<string, unknown[]> = Object.create(null)
          for (const [k, v] of entries)
            (expected[k] ??= []).push(typeof v === 'string' ? v.replace(/\r\n|\r|\n/g, '\r\n') : await shown(v))
          const got: Record<string, unknown[]> = Object.create(null)
          for (const [k, v] of Object.entries(fields ?? {}))
            got[k] = await Promise.all([v].flat().map((x) => (x instanceof Blob ? shown(x as File) : x)))
          expect(got).toEqual(expected)
        }),
        params(200),
      )
    },
    budget(200, 20_000),
  )

  it(
    'answers any bytes under any Content-Type with fields or a 4xx',
    async () => {
      const bytes = fc.oneof(body, fc.uint8Array({ maxLength: 96 }))
      await fc.assert(
        fc.asyncProperty(contentType, bytes, async (type, b) => {
          await readBody(post(b, type), { limit: 1 << 20 }).catch((error) => expect(escaped(error)).toBeUndefined())
        }),
        params(300),
      )
    },
    budget(300, 20_000),
  )
})

async function shown(file: File): Promise<string> {
  return `file ${file.name} ${[...new Uint8Array(await file.arrayBuffer())].join(',')}`
}
