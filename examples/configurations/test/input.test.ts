/** Bad input, every kind: each answer is a 4xx naming what is wrong, never a 500, and nothing is stored. */
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { type Client, forEachDatabase, record, type Reply, type RunningApi, startApi } from './harness.ts'

/** The fields a 400 names, in its `errors`. */
function fields(reply: Reply): string[] {
  expect(reply.status).toBe(400)
  expect(reply.body).toMatchObject({ status: 400, error: 'Bad Request' })
  expect(reply.body.message).toBe(reply.body.errors.map((e: { message: string }) => e.message).join('; '))
  return reply.body.errors.map((e: { field: string }) => e.field)
}

forEachDatabase((database) => {
  let api: RunningApi
  let alice: Client
  beforeAll(async () => {
    api = await startApi(database)
    alice = await api.signedIn()
    await alice.post('/configurations/', record('existing'))
  })
  afterAll(() => api?.close())

  async function expectNothingStored(): Promise<void> {
    expect((await alice.get('/configurations/')).body.configurations.map((c: { name: string }) => c.name)).toEqual([
      'existing',
    ])
  }

  describe('POST /configurations/ fields', () => {
    it.each([
      ['missing name', { hostname: 'h', port: 1, username: 'u' }, ['name'], 'name is required'],
      [
        'every field missing',
        {},
        ['name', 'hostname', 'port', 'username'],
        'name is required; hostname is required; port is required; username is required',
      ],
      [
        'an extra field',
        { ...record('x'), colour: 'red' },
        ['colour'],
        'colour is not a parameter (expected name, hostname, port, username)',
      ],
      ['an id', { ...record('x'), id: 7 }, ['id'], 'id is assigned by the server and cannot be set'],
      [
        'a name with a slash',
        { ...record('x'), name: 'a/b' },
        ['name'],
        'name must be 1 to 64 characters from A-Z a-z 0-9 . _ - starting with a letter or digit',
      ],
      ['a unicode name', { ...record('x'), name: 'über' }, ['name'], undefined],
      ['an emoji name', { ...record('x'), name: 'db🔥' }, ['name'], undefined],
      ['a name of 65 characters', { ...record('x'), name: 'n'.repeat(65) }, ['name'], undefined],
      ['an empty name', { ...record('x'), name: '' }, ['name'], undefined],
      ['a name starting with a dot', { ...record('x'), name: '.hidden' }, ['name'], undefined],
      ['a name with a space', { ...record('x'), name: 'a b' }, ['name'], undefined],
      [
        'a name routeless cannot route',
        { ...record('x'), name: 'Constructor' },
        ['name'],
        'name "Constructor" is reserved',
      ],
      [
        'a number for name',
        { ...record('x'), name: 42 },
        ['name'],
        'name must be 1 to 64 characters from A-Z a-z 0-9 . _ - starting with a letter or digit',
      ],
      [
        'null for hostname',
        { ...record('x'), hostname: null },
        ['hostname'],
        'hostname must be a DNS name (letters, digits, hyphens and dots, at most 253 characters; punycode for international names) or an IP address',
      ],
      ['a hostname with a space', { ...record('x'), hostname: 'a b' }, ['hostname'], undefined],
      ['a unicode hostname', { ...record('x'), hostname: 'bücher.de' }, ['hostname'], undefined],
      ['a hostname label ending in a hyphen', { ...record('x'), hostname: 'a-.example.com' }, ['hostname'], undefined],
      [
        'a hostname of 254 characters',
        { ...record('x'), hostname: `${'a'.repeat(63)}.${'b'.repeat(63)}.${'c'.repeat(63)}.${'d'.repeat(62)}` },
        ['hostname'],
        undefined,
      ],
      ['a hostname like a bad IP', { ...record('x'), hostname: '300.1.1.1' }, ['hostname'], undefined],
      ['a URL for hostname', { ...record('x'), hostname: 'http://example.com' }, ['hostname'], undefined],
      ['port 0', { ...record('x'), port: 0 }, ['port'], 'port must be an integer from 1 to 65535'],
      ['port 65536', { ...record('x'), port: 65536 }, ['port'], 'port must be an integer from 1 to 65535'],
      ['a fractional port', { ...record('x'), port: 22.5 }, ['port'], 'port must be an integer from 1 to 65535'],
      ['a negative port', { ...record('x'), port: -1 }, ['port'], 'port must be an integer from 1 to 65535'],
      [
        'a string port (JSON keeps its types)',
        { ...record('x'), port: '22' },
        ['port'],
        'port must be an integer from 1 to 65535',
      ],
      ['a boolean port', { ...record('x'), port: true }, ['port'], 'port must be an integer from 1 to 65535'],
      [
        'an array username',
        { ...record('x'), username: ['a'] },
        ['username'],
        'username must be 1 to 64 printable ASCII characters without spaces',
      ],
      [
        'a username with a space',
        { ...record('x'), username: 'a b' },
        ['username'],
        'username must be 1 to 64 printable ASCII characters without spaces',
      ],
      ['a username of 65 characters', { ...record('x'), username: 'u'.repeat(65) }, ['username'], undefined],
      ['a NUL in a username', { ...record('x'), username: 'ro\u0000ot' }, ['username'], undefined],
      ['a lone surrogate in a name', { ...record('x'), name: 'a\ud800' }, ['name'], undefined],
      [
        'several problems',
        { name: 'ü', hostname: 1, port: 'x', extra: true },
        ['name', 'hostname', 'port', 'extra', 'username'],
        undefined,
      ],
    ])('rejects %s', async (_, body, expected, message) => {
      const reply = await alice.post('/configurations/', body)
      expect(fields(reply)).toEqual(expected)
      if (message) expect(reply.body.message).toBe(message)
      await expectNothingStored()
    })
  })

  describe('PATCH /configurations/:name fields', () => {
    it.each([
      ['an empty object', {}, ['body'], 'give at least one of name, hostname, port, username'],
      ['an id', { id: 1 }, ['id']],
      ['an extra field', { port: 1, colour: 'red' }, ['colour']],
      ['a name with a slash', { name: 'a/b' }, ['name']],
      ['a unicode name', { name: 'naïve' }, ['name']],
      ['null for port', { port: null }, ['port']],
      ['port 70000', { port: 70000 }, ['port']],
    ])('rejects %s and leaves the record alone', async (_, body, expected, message?: string) => {
      const before = (await alice.get('/configurations/existing')).body
      const reply = await alice.patch('/configurations/existing', body)
      expect(fields(reply)).toEqual(expected)
      if (message) expect(reply.body.message).toBe(message)
      expect((await alice.get('/configurations/existing')).body).toEqual(before)
    })

    it('checks the body before looking the name up', async () => {
      expect(fields(await alice.patch('/configurations/nobody-here', { port: 0 }))).toEqual(['port'])
    })
  })

  describe('bodies', () => {
    it('rejects a body that is not JSON with 400', async () => {
      const reply = await alice.send('POST', '/configurations/', {
        body: '{"name": "x",',
        headers: { 'content-type': 'application/json' },
      })
      expect(reply.status).toBe(400)
      expect(reply.body.message).toBe(
        'Malformed JSON body: Expected double-quoted property name in JSON at position 13',
      )
    })

    it('rejects JSON that is not UTF-8 with 400', async () => {
      const reply = await alice.send('POST', '/configurations/', {
        body: new Uint8Array([0x7b, 0xff, 0x7d]),
        headers: { 'content-type': 'application/json' },
      })
      expect(reply.status).toBe(400)
      expect(reply.body.message).toBe('Malformed JSON body: not UTF-8')
    })

    it.each([
      ['an array', [record('x')], 'an array'],
      ['a string', 'x', 'a string'],
      ['null', null, 'null'],
      ['a number', 5, 'a number'],
    ])('rejects a JSON body that is %s with 400', async (_, json, what) => {
      const reply = await alice.send('POST', '/configurations/', {
        body: JSON.stringify(json),
        headers: { 'content-type': 'application/json' },
      })
      expect(reply.status).toBe(400)
      expect(reply.body.message).toBe(`The body must be a JSON object, not ${what}`)
    })

    it.each([
      ['a form', 'application/x-www-form-urlencoded', 'name=x&hostname=h&port=1&username=u'],
      ['text', 'text/plain', JSON.stringify(record('x'))],
      [
        'multipart',
        'multipart/form-data; boundary=b',
        '--b\r\nContent-Disposition: form-data; name="name"\r\n\r\nx\r\n--b--\r\n',
      ],
    ])('rejects %s with 415 asking for JSON', async (_, type, body) => {
      const reply = await alice.send('POST', '/configurations/', { body, headers: { 'content-type': type } })
      expect(reply.status).toBe(415)
      expect(reply.body.message).toBe(`Unsupported Content-Type: ${type.split(';')[0]}: send application/json`)
      expect(reply.headers.get('accept-post')).toBe('application/json')
      await expectNothingStored()
    })

    it('rejects a body without a content type with 415', async () => {
      const reply = await alice.send('POST', '/configurations/', {
        body: new TextEncoder().encode(JSON.stringify(record('x'))),
      })
      expect(reply.status).toBe(415)
      expect(reply.body.message).toBe('A request body needs a Content-Type header: send application/json')
    })

    it('accepts a JSON content type with a charset parameter', async () => {
      const reply = await alice.send('POST', '/configurations/', {
        body: JSON.stringify(record('charset')),
        headers: { 'content-type': 'application/json; charset=utf-8' },
      })
      expect(reply.status).toBe(200)
      expect((await alice.delete('/configurations/charset')).status).toBe(209)
    })

    it('treats a POST without a body as one without any field', async () => {
      expect(fields(await alice.send('POST', '/configurations/'))).toEqual(['name', 'hostname', 'port', 'username'])
    })

    it('rejects a body over 16 KiB with 413, whether announced or streamed', async () => {
      const huge = { ...record('huge'), hostname: 'h'.repeat(20_000) }
      const reply = await alice.post('/configurations/', huge)
      expect(reply.status).toBe(413)
      expect(reply.body).toEqual({
        status: 413,
        error: 'Content Too Large',
        message: 'Request body is larger than the limit of 16384 bytes',
      })
      const chunk = new TextEncoder().encode(' '.repeat(4096))
      const stream = new ReadableStream<Uint8Array>({
        start(controller) {
          for (let i = 0; i < 8; i++) controller.enqueue(chunk)
          controller.close()
        },
      })
      const response = await fetch(`${api.url}/configurations/`, {
        method: 'POST',
        body: stream,
        headers: { 'content-type': 'application/json', cookie: `session=${alice.cookie}` },
        duplex: 'half',
      } as RequestInit)
      expect(response.status).toBe(413)
      await expectNothingStored()
    })

    it('rejects a body on DELETE unless it is an empty object', async () => {
      expect(fields(await alice.send('DELETE', '/configurations/existing', { json: { force: true } }))).toEqual([
        'force',
      ])
      await expectNothingStored()
    })
  })

  describe('query parameters', () => {
    it.each([
      [
        'sort=size',
        ['sort'],
        'sort must be one of name, hostname, port, username (with a leading - for descending order)',
      ],
      ['sort=Name', ['sort'], undefined],
      ['sort=', ['sort'], undefined],
      [
        'sort=name&sort=port',
        ['sort'],
        'sort must be one of name, hostname, port, username (with a leading - for descending order)',
      ],
      ['page=0', ['per_page'], 'per_page is required with page: give both to paginate, or neither'],
      ['per_page=10', ['page'], 'page is required with per_page: give both to paginate, or neither'],
      ['page=0&per_page=101', ['per_page'], 'per_page must be an integer from 1 to 100'],
      ['page=0&per_page=0', ['per_page'], undefined],
      ['page=-1&per_page=10', ['page'], 'page must be an integer from 0'],
      ['page=1.5&per_page=10', ['page'], undefined],
      ['page=one&per_page=10', ['page'], undefined],
      ['page=0&per_page=ten', ['per_page'], undefined],
      ['limit=5', ['limit'], 'limit is not a parameter (expected sort, page, per_page, lastEventId)'],
      ['page=1.5e0&per_page=10', ['page'], 'page must be an integer from 0'],
      ['page=-3&per_page=10', ['page'], 'page must be an integer from 0'],
    ])('GET /configurations/?%s answers 400 naming %j', async (query, expected, message) => {
      const reply = await alice.get(`/configurations/?${query}`)
      expect(fields(reply)).toEqual(expected)
      if (message) expect(reply.body.message).toBe(message)
    })

    it('rejects query parameters on the routes that take none', async () => {
      expect(fields(await alice.get('/configurations/existing?verbose=1'))).toEqual(['verbose'])
      expect(fields(await alice.get('/configurations/existing?sort=name'))).toEqual(['sort'])
      expect(fields(await alice.send('POST', '/configurations/?colour=x', { json: record('q') }))).toEqual(['colour'])
      expect(fields(await alice.send('PATCH', '/configurations/existing?verbose=1', { json: { port: 2 } }))).toEqual([
        'verbose',
      ])
      expect(fields(await alice.send('DELETE', '/configurations/existing?force=1'))).toEqual(['force'])
      await expectNothingStored()
    })
  })
})
