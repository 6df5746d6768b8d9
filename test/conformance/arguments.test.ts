import { expect, it } from 'vitest'
import { blobType, describeTargets, skipWhere } from '../_targets.ts'
import { fixtureApp } from '../_apps.ts'

const json = (body: unknown, method = 'POST'): RequestInit => ({
  method,
  body: JSON.stringify(body),
  headers: { 'content-type': 'application/json' },
})
/** A POST of `body` as it is, typed `type`. */
const sent = (body: BodyInit, type: string): RequestInit => ({
  method: 'POST',
  body,
  headers: { 'content-type': type },
})

describeTargets('Positional arguments', fixtureApp('args'), (t) => {
  it('passes none, one, optional and rest parameters', async () => {
    expect(await (await t().request('/none')).json()).toBe('none')
    expect((await t().request('/none/extra')).status).toBe(404)
    expect(await (await t().request('/one/7')).json()).toEqual({ id: '7' })
    expect((await t().request('/one')).status).toBe(404)
    expect((await t().request('/one/7/8')).status).toBe(404)
    expect(await (await t().request('/optional/x')).json()).toEqual({ a: 'x', b: 'default-b' })
    expect(await (await t().request('/optional/x/y')).json()).toEqual({ a: 'x', b: 'y' })
    expect((await t().request('/optional')).status).toBe(404)
    expect(await (await t().request('/rest/a/b/c')).json()).toEqual({ first: 'a', rest: ['b', 'c'] })
  })
})

describeTargets('Keyword arguments', fixtureApp('args'), (t) => {
  it('passes query parameters to a destructured last parameter', async () => {
    expect(await (await t().request('/kw/3?page=2')).json()).toEqual({ id: '3', page: '2', tags: null })
    expect(await (await t().request('/kw?page=1')).json()).toEqual({ id: '', page: '1', tags: null })
  })
  it('turns repeated keys into arrays and accepts the ids[] alias', async () => {
    expect((await (await t().request('/kw?tags=a&tags=b')).json()).tags).toEqual(['a', 'b'])
    expect((await (await t().request('/kw?tags[]=a')).json()).tags).toEqual(['a'])
    expect((await (await t().request('/kw?tags%5B%5D=a&tags%5B%5D=b')).json()).tags).toEqual(['a', 'b'])
  })
  it('passes JSON body fields over query parameters to a parameter named kwargs', async () => {
    expect(
      await (
        await t().request('/kw?a=query&b=query', json({ a: 'body', n: 1, list: [1, 2], obj: { x: true } }))
      ).json(),
    ).toEqual({ a: 'body', b: 'query', n: 1, list: [1, 2], obj: { x: true } })
  })
  it('passes urlencoded fields, repeated as arrays', async () => {
    const res = await t().request('/kw', sent('x=1&y=2&y=3&name=a+b%21', 'application/x-www-form-urlencoded'))
    expect(await res.json()).toEqual({ x: '1', y: ['2', '3'], name: 'a b!' })
  })
  it('ignores a __proto__ key instead of polluting anything', async () => {
    const res = await t().request('/kw?__proto__=x', {
      method: 'POST',
      body: '{"__proto__": {"polluted": true}, "ok": 1}',
      headers: { 'content-type': 'application/json' },
    })
    expect(await res.json()).toEqual({ ok: 1 })
    expect(({} as Record<string, unknown>).polluted).toBeUndefined()
  })
  it('takes keys named like inherited members as plain keys, from the query and from a form', async () => {
    const query = 'toString=1&constructor=2&hasOwnProperty=3&valueOf=4'
    const expected = { toString: '1', constructor: '2', hasOwnProperty: '3', valueOf: '4' }
    expect(await (await t().request(`/kw?${query}`, { method: 'POST' })).json()).toEqual(expected)
    const form = { 'content-type': 'application/x-www-form-urlencoded' }
    expect(await (await t().request('/kw', { method: 'POST', body: query, headers: form })).json()).toEqual(expected)
  })
  it('exposes kwargs, args, the decoded body and the request on the controller', async () => {
    const res = await t().request('/ctx/9?q=1', json([1, 2, 3]))
    expect(await res.json()).toEqual({
      id: '9',
      kwargs: { q: '1' },
      args: ['9'],
      body: [1, 2, 3],
      method: 'POST',
      path: '/ctx/9',
    })
  })
  it('passes multipart fields and files', async () => {
    const form = new FormData()
    form.set('note', 'hello')
    form.set('upload', new File(['file contents'], 'a.txt', { type: 'text/plain' }))
    const res = await t().request('/files', { method: 'POST', body: form })
    expect(await res.json()).toEqual({
      note: 'hello',
      name: 'a.txt',
      type: blobType(t(), 'text/plain'),
      size: 13,
      text: 'file contents',
    })
  })
  it('gives raw bytes to a controller that accepts the content type', async () => {
    const res = await t().request('/raw', {
      method: 'POST',
      body: 'plain body',
      headers: { 'content-type': 'text/plain; charset=utf-8' },
    })
    expect(await res.json()).toEqual({ length: 10, text: 'plain body' })
  })
  it('treats an empty body as no body', async () => {
    const res = await t().request('/kw?x=1', {
      method: 'POST',
      body: '',
      headers: { 'content-type': 'application/json' },
    })
    expect(await res.json()).toEqual({ x: '1' })
  })
})

describeTargets('Bad bodies', fixtureApp('args', { bodyLimit: 1024 }), (t) => {
  it('answers 400 for malformed JSON', async () => {
    for (const body of ['{"a":', 'not json', '{"a": 1}}']) {
      const res = await t().request('/kw', sent(body, 'application/json'))
      expect(res.status).toBe(400)
      expect(await res.json()).toMatchObject({
        status: 400,
        error: 'Bad Request',
        message: expect.stringMatching(/^Malformed JSON body: \S/),
      })
    }
  })
  it('answers 400 for invalid UTF-8 in JSON', async () => {
    const res = await t().request('/kw', sent(new Uint8Array([0x7b, 0xff, 0x7d]), 'application/json'))
    expect(res.status).toBe(400)
    expect((await res.json()).message).toBe('Malformed JSON body: not UTF-8')
  })
  it('takes U+FFFD sent as valid UTF-8, and refuses invalid bytes beside it', async () => {
    // {"a":"\uFFFD"} as UTF-8 (EF BF BD): the replacement character is data here, not a decoding error.
    const valid = new Uint8Array([0x7b, 0x22, 0x61, 0x22, 0x3a, 0x22, 0xef, 0xbf, 0xbd, 0x22, 0x7d])
    const res = await t().request('/kw', sent(valid, 'application/json'))
    expect(res.status).toBe(200)
    expect(await res.json()).toEqual({ a: '\uFFFD' })
    const both = new Uint8Array([0x7b, 0x22, 0x61, 0x22, 0x3a, 0x22, 0xef, 0xbf, 0xbd, 0xf0, 0x9f, 0x98, 0x22, 0x7d])
    const bad = await t().request('/kw', sent(both, 'application/json'))
    expect(bad.status).toBe(400)
    expect((await bad.json()).message).toBe('Malformed JSON body: not UTF-8')
  })
  it('answers 400 for invalid UTF-8 in a form', async () => {
    const res = await t().request('/kw', sent(new Uint8Array([0x61, 0x3d, 0xff]), 'application/x-www-form-urlencoded'))
    expect(res.status).toBe(400)
    expect((await res.json()).message).toBe('Malformed form body: not UTF-8')
  })
  it('answers 400 for a malformed multipart body', async () => {
    const res = await t().request('/kw', sent('garbage', 'multipart/form-data; boundary=xyz'))
    expect(res.status).toBe(400)
    expect((await res.json()).message).toBe('Malformed multipart body')
  })
  it('answers 415 for an unsupported content type, and for a body without one', async () => {
    const res = await t().request('/kw', sent('<a/>', 'application/xml'))
    expect(res.status).toBe(415)
    expect((await res.json()).message).toBe('Unsupported Content-Type: application/xml')
    const none = await t().request('/kw', { method: 'POST', body: new Uint8Array([1, 2, 3]) })
    expect(none.status).toBe(415)
  })
  it('answers 413 for a body over the application limit', async () => {
    const res = await t().request('/kw', json({ big: 'x'.repeat(2000) }))
    expect(res.status).toBe(413)
    expect((await res.json()).message).toBe('Request body is larger than the limit of 1024 bytes')
  })
  it('answers 413 for a streamed body without Content-Length once it passes the limit', async (ctx) => {
    skipWhere(t(), 'early-refusal', ctx)
    const chunk = new TextEncoder().encode('x'.repeat(512))
    let sent = 0
    const body = new ReadableStream<Uint8Array>({
      pull(c) {
        if (sent++ < 64) c.enqueue(chunk)
        else c.close()
      },
    })
    const res = await t().request('/kw', {
      method: 'POST',
      body,
      headers: { 'content-type': 'application/json' },
      duplex: 'half',
    } as RequestInit)
    expect(res.status).toBe(413)
  })
  it("honours a class's own bodyLimit", async () => {
    expect((await t().request('/small', json({ a: 'short' }))).status).toBe(200)
    expect((await t().request('/small', json({ a: 'longer than sixteen' }))).status).toBe(413)
  })
  it('ignores a body on GET', async () => {
    const res = await t().request('/kw?page=1')
    expect(res.status).toBe(200)
  })
})

describeTargets('Request headers (this.headers)', fixtureApp('args'), (t) => {
  it('reads headers, cookies and the negotiated type without a Fetch Request', async () => {
    const res = await t().request('/reader', {
      headers: {
        'X-Thing': 'a, b',
        cookie: 'theme="dark"; session=abc%20def; session=second',
        accept: 'text/html;q=0.9, application/*;q=0.5',
      },
    })
    expect(await res.json()).toEqual({ thing: 'a, b', has: true, session: 'abc def', theme: 'dark', type: 'text/html' })
  })
  it('answers with the first offered type when Accept is absent, and none when nothing offered is acceptable', async () => {
    expect((await (await t().request('/reader', { headers: { accept: '' } })).json()).type).toBe('application/json')
    expect((await (await t().request('/reader', { headers: { accept: 'image/png' } })).json()).type).toBe(null)
    expect(
      (await (await t().request('/reader', { headers: { accept: 'application/json;q=0, */*;q=0.1' } })).json()).type,
    ).toBe('text/html')
    expect(await (await t().request('/reader')).json()).toMatchObject({ thing: null, has: false, session: null })
  })
})

describeTargets('A keyword that repeats a positional', fixtureApp('args'), (t) => {
  it('is the argument given twice: 400 naming it', async () => {
    const res = await t().request('/one/1?id=2')
    expect(res.status).toBe(400)
    expect((await res.json()).message).toBe('Invalid parameters: id: was given twice, as a path part and as a keyword')
    const body = await t().request('/ctx/1', json({ id: 2 }))
    expect(body.status).toBe(400)
    expect((await body.json()).errors).toEqual([
      { name: 'id', reason: 'was given twice, as a path part and as a keyword', kind: 'invalid' },
    ])
  })
  it('is no repeat when the path left that optional positional out', async () => {
    expect(await (await t().request('/optional/x?a=y')).status).toBe(400)
    expect(await (await t().request('/optional/x?b=y')).json()).toEqual({ a: 'x', b: 'default-b' })
  })
})

describeTargets('Names spelt like Object.prototype members', fixtureApp('args'), (t) => {
  const names = ['constructor', '__proto__', 'toString', 'valueOf', 'hasOwnProperty']
  it('passes them as positional arguments, like any other path part', async () => {
    for (const name of names) {
      expect(await (await t().request(`/one/${name}`)).json(), name).toEqual({ id: name })
      expect(await (await t().request(`/rest/${name}/${name}`)).json(), name).toEqual({ first: name, rest: [name] })
    }
    expect(await (await t().request(`/rest/a/${names.join('/')}`)).json()).toEqual({ first: 'a', rest: names })
  })
  it('routes a segment named so to its own handler, and the others to the positional one', async () => {
    expect(await (await t().request('/inherited/constructor/7')).json()).toEqual({ segment: 'constructor', id: '7' })
    expect(await (await t().request('/inherited/toString')).json()).toMatchObject({ id: 'toString' })
    expect(await (await t().request('/inherited/valueOf')).json()).toMatchObject({ id: 'valueOf' })
  })
  it('takes keywords named so when declared, and never reads an inherited member', async () => {
    expect(await (await t().request('/inherited?constructor=1&toString=2&valueOf=3')).json()).toEqual({
      id: '',
      made: '1',
      text: '2',
      value: '3',
    })
    expect(await (await t().request('/inherited?valueOf=3')).json()).toEqual({
      id: '',
      made: null,
      text: null,
      value: '3',
    })
    const echoed = await (await t().request('/kw?page=1')).json()
    expect(echoed).toEqual({ id: '', page: '1', tags: null })
  })
  it('answers an undeclared keyword named so as any unknown one, and echoes it where all are taken', async () => {
    const plain = await t().request('/kw?unknownkey=1')
    for (const name of names) {
      const res = await t().request(`/kw?${name}=1`)
      expect(res.status, name).toBe(name === '__proto__' ? 200 : plain.status)
    }
    const res = await t().request('/ctx?constructor=1&toString=2&valueOf=3&hasOwnProperty=4&__proto__=5', {
      method: 'POST',
    })
    expect(res.status).toBe(200)
    const kwargs = (await res.json()).kwargs
    expect(kwargs).toEqual({ constructor: '1', toString: '2', valueOf: '3', hasOwnProperty: '4' })
  })
})
