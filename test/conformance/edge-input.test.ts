/**
 * Input a coverage-guided fuzzer found answered with a 5xx, parsed past a limit, or read two ways: each is now a 4xx
 * that names its cause, on every target. test/fuzz/ generates many more of each shape.
 */
import { expect, it } from 'vitest'
import { describeTargets } from '../_targets.ts'
import { fixtureApp } from '../_apps.ts'

const sent = (body: BodyInit, type: string): RequestInit => ({
  method: 'POST',
  body,
  headers: { 'content-type': type },
})

/** A multipart body of `parts` fields named `name`, delimited by `boundary`. */
function multipart(boundary: string, parts: number): string {
  let text = ''
  for (let i = 0; i < parts; i++) text += `--${boundary}\r\nContent-Disposition: form-data; name="name"\r\n\r\nx\r\n`
  return `${text}--${boundary}--\r\n`
}

describeTargets('Edge input', fixtureApp('typed'), (t) => {
  const answer = async (path: string, init?: RequestInit) => {
    const res = await t().request(path, init)
    return { status: res.status, body: await res.json() }
  }

  it('refuses a file where the form nests fields in it with a 400 naming the field', async () => {
    for (const key of ['user.name', 'user[size]']) {
      const form = new FormData()
      form.append('user', new File(['x'], 'f.txt'))
      form.append(key, 'x')
      form.append('tags', 'a')
      const { status, body } = await answer('/users', { method: 'POST', body: form })
      expect(status, key).toBe(400)
      expect(body.errors, key).toContainEqual({
        name: key,
        reason: 'cannot be set: user is a file',
        kind: 'invalid',
      })
    }
  })

  it('refuses a field name where the form made a list with a 400 naming the field', async () => {
    const { status, body } = await answer('/users', sent('user[0]=a&user[length]=x&tags=a', FORM))
    expect(status).toBe(400)
    expect(body.errors).toContainEqual({
      name: 'user[length]',
      reason: 'cannot be set: user is a list',
      kind: 'invalid',
    })
  })

  it('refuses a JSON number beyond a double with a 400 naming where it is, at any depth', async () => {
    const body = '{"user":{"name":"a","age":1e999},"tags":[]}'
    expect(await answer('/users', sent(body, JSON_TYPE))).toEqual({
      status: 400,
      body: {
        status: 400,
        error: 'Bad Request',
        message: 'Malformed JSON body: the number at "age" is beyond a double\'s range',
      },
    })
    const deep = await answer('/users', sent('{"user":{"name":"a","age":1},"tags":[],"x":[[-1E+400]]}', JSON_TYPE))
    expect(deep.body.message).toBe('Malformed JSON body: the number at "0" is beyond a double\'s range')
    // A long integer part with a two-digit exponent is beyond a double too (10³⁴⁹).
    const wide = await answer('/users', sent(`{"user":{"name":"a","age":1${'0'.repeat(250)}e99},"tags":[]}`, JSON_TYPE))
    expect(wide.body.message).toBe('Malformed JSON body: the number at "age" is beyond a double\'s range')
    // Nested deeper than the walk goes (64 levels), the reviver still decides.
    const nest = (inner: string) =>
      `{"user":{"name":"a","age":1},"tags":[],"x":${'['.repeat(70)}${inner}${']'.repeat(70)}}`
    expect((await answer('/users', sent(nest('1e999'), JSON_TYPE))).body.message).toBe(
      'Malformed JSON body: the number at "0" is beyond a double\'s range',
    )
    expect((await answer('/users', sent(nest('1'), JSON_TYPE))).body.errors).toEqual([
      { name: 'x', reason: expect.stringMatching(/^is not a parameter/), kind: 'unknown' },
    ])
    // Numbers a double holds, however written, are numbers.
    const fine = await answer('/users', sent('{"user":{"name":"a","age":1e308},"tags":[],"n":1e-999}', JSON_TYPE))
    expect(fine.status).toBe(400) // `n` is not a parameter: the numbers themselves were read
    expect(fine.body.errors).toEqual([
      { name: 'n', reason: expect.stringMatching(/^is not a parameter/), kind: 'unknown' },
    ])
    expect((await answer('/add/1e999/1')).status).toBe(400)
  })

  it('counts the parts with the boundary the parser uses: 413 over the limit, whatever the header spells', async () => {
    const many = (b: string) => multipart(b, 1001)
    for (const type of [
      'multipart/form-data; boundary=B',
      'multipart/form-data; Boundary="B"',
      'multipart/form-data;boundary=B;',
      'multipart/form-data; charset=utf-8; boundary=B',
      'multipart/form-data; x="a;b"; boundary=B',
    ]) {
      const { status, body } = await answer('/', sent(many('B'), type))
      expect([status, body.message], type).toEqual([
        413,
        'Multipart body has more than 1000 parts (the limit is 1000 parts)',
      ])
      expect(await answer('/', sent(multipart('B', 1), type)), type).toEqual({ status: 200, body: 'hello x' })
    }
    const spaced = 'multipart/form-data; boundary="a b:c?"'
    expect((await answer('/', sent(many('a b:c?'), spaced))).status).toBe(413)
    expect(await answer('/', sent(multipart('a b:c?', 1), spaced))).toEqual({ status: 200, body: 'hello x' })
  })

  it('refuses a multipart Content-Type whose boundary is missing or could be read two ways, before parsing', async () => {
    const long = 'b'.repeat(71)
    const cases: [type: string, boundary: string, why: string][] = [
      [`multipart/form-data; boundary="${long}"`, long, 'the boundary is not 1 to 70'],
      ['multipart/form-data; boundary="B\\"C"', 'B"C', 'its parameters cannot be read'],
      ['multipart/form-data; x="; boundary=C"; boundary=B', 'B', 'boundary given twice'],
      ['multipart/form-data; boundary=B; boundary=C', 'B', 'boundary given twice'],
      ['multipart/form-data', 'B', 'no boundary'],
      ['multipart/form-data; charset=utf-8', 'B', 'no boundary'],
      ['multipart/form-data; boundary =B', 'B', 'its parameters cannot be read'],
      ['multipart/form-data; boundary=', 'B', 'the boundary is not 1 to 70'],
    ]
    for (const [type, boundary, why] of cases) {
      // As many parts as the limit allows and as many again: refused for the header, not counted, never parsed.
      for (const parts of [1, 2000]) {
        const { status, body } = await answer('/', sent(multipart(boundary, parts), type))
        expect(status, `${type} (${parts} parts)`).toBe(400)
        expect(body.message, type).toMatch(new RegExp(`^Malformed multipart Content-Type: ${escapeRegExp(why)}`))
      }
    }
  })

  it('reads a leading ? in the query as part of the first key, decoded or not', async () => {
    for (const path of ['/items??ids=1', '/items??ids=%31', '/items??ids=1&x=%20']) {
      const { status, body } = await answer(path)
      expect(status, path).toBe(400)
      expect(body.errors[0], path).toMatchObject({ name: '?ids', kind: 'unknown' })
    }
    expect(await answer('/items?ids=%31')).toEqual({ status: 200, body: { ids: [1] } })
    const { body } = await answer('/users', sent('?tags=a&user[name]=a&user[age]=1', FORM))
    expect(body.errors[0]).toMatchObject({ name: '?tags', kind: 'unknown' })
  })
})

const FORM = 'application/x-www-form-urlencoded'
const JSON_TYPE = 'application/json'
const escapeRegExp = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')
