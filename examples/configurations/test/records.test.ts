/** The record routes, black-box over HTTP: create, read, list (sorted, paginated), modify, delete. */
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { type Client, forEachDatabase, record, type RunningApi, startApi } from './harness.ts'

forEachDatabase((database) => {
  let api: RunningApi
  let alice: Client
  beforeAll(async () => {
    api = await startApi(database)
    alice = await api.signedIn()
  })
  afterAll(() => api?.close())

  describe('POST /configurations/', () => {
    it('answers 200 with the added record, wrapped, with an integer id', async () => {
      const reply = await alice.post('/configurations/', record('create-1', { port: 8443 }))
      expect(reply.status).toBe(200)
      expect(reply.headers.get('content-type')).toMatch(/^application\/json/)
      expect(reply.body).toEqual({
        configurations: [{ id: expect.any(Number), ...record('create-1', { port: 8443 }) }],
      })
      expect(Number.isInteger(reply.body.configurations[0].id)).toBe(true)
    })

    it('answers 409 with the colliding record when the name is taken', async () => {
      const first = await alice.post('/configurations/', record('taken'))
      const again = await alice.post('/configurations/', record('taken', { port: 99 }))
      expect(again.status).toBe(409)
      expect(again.body).toEqual(first.body)
      expect((await alice.get('/configurations/taken')).body).toEqual(first.body)
    })

    it('compares names without regard to letter case, and keeps the case given', async () => {
      const first = await alice.post('/configurations/', record('MixedCase'))
      expect(first.body.configurations[0].name).toBe('MixedCase')
      const clash = await alice.post('/configurations/', record('mixedcase'))
      expect(clash.status).toBe(409)
      expect(clash.body).toEqual(first.body)
      expect((await alice.get('/configurations/MIXEDCASE')).body).toEqual(first.body)
    })

    it('gives increasing ids that are not reused after a delete', async () => {
      const a = (await alice.post('/configurations/', record('ids-a'))).body.configurations[0].id
      const b = (await alice.post('/configurations/', record('ids-b'))).body.configurations[0].id
      expect(b).toBeGreaterThan(a)
      expect((await alice.delete('/configurations/ids-b')).status).toBe(209)
      const c = (await alice.post('/configurations/', record('ids-b'))).body.configurations[0].id
      expect(c).toBeGreaterThan(b)
    })

    it('lets two records share hostname, port and username: only names are unique', async () => {
      const shared = { hostname: 'shared.example.com', port: 5432, username: 'postgres' }
      expect((await alice.post('/configurations/', record('share-1', shared))).status).toBe(200)
      expect((await alice.post('/configurations/', record('share-2', shared))).status).toBe(200)
    })

    it('accepts the bounds of every field', async () => {
      const longest = {
        name: `B${'x'.repeat(63)}`,
        hostname: `${'a'.repeat(63)}.${'b'.repeat(63)}.${'c'.repeat(63)}.${'d'.repeat(61)}`,
        port: 65535,
        username: '~'.repeat(64),
      }
      const reply = await alice.post('/configurations/', longest)
      expect(reply.status).toBe(200)
      expect(reply.body.configurations[0]).toMatchObject(longest)
      for (const [name, hostname, port] of [
        ['bounds-1', '127.0.0.1', 1],
        ['bounds-2', '::1', 2],
        ['bounds-3', 'localhost', 3],
        ['v1.2_x-y', 'x.y', 4],
      ] as const) {
        expect((await alice.post('/configurations/', { name, hostname, port, username: 'u' })).status).toBe(200)
      }
    })
  })

  describe('GET /configurations/:name', () => {
    it('answers 404 with the standard error envelope when no record has the name', async () => {
      const reply = await alice.get('/configurations/nobody-here')
      expect(reply.status).toBe(404)
      expect(reply.body).toEqual({
        status: 404,
        error: 'Not Found',
        message: 'No configuration is named "nobody-here"',
      })
    })

    it('answers 404 for a name no record can have (unicode, percent-encoded slash)', async () => {
      expect((await alice.get('/configurations/%C3%BCber')).status).toBe(404)
      expect((await alice.get('/configurations/a%2Fb')).status).toBe(404)
      expect((await alice.get('/configurations/a/b')).status).toBe(404)
    })

    it('serves HEAD like GET without a body', async () => {
      await alice.post('/configurations/', record('heady'))
      const reply = await alice.send('HEAD', '/configurations/heady')
      expect(reply.status).toBe(200)
      expect(reply.text).toBe('')
    })
  })

  describe('PATCH /configurations/:name', () => {
    it('changes only the fields given and keeps the id', async () => {
      const created = (await alice.post('/configurations/', record('patchy'))).body.configurations[0]
      const reply = await alice.patch('/configurations/patchy', { port: 2222 })
      expect(reply.status).toBe(200)
      expect(reply.body).toEqual({ configurations: [{ ...created, port: 2222 }] })
      const renamed = await alice.patch('/configurations/patchy', { name: 'patchy-2', username: 'root' })
      expect(renamed.body).toEqual({ configurations: [{ ...created, port: 2222, name: 'patchy-2', username: 'root' }] })
      expect((await alice.get('/configurations/patchy')).status).toBe(404)
      expect((await alice.get('/configurations/patchy-2')).body).toEqual(renamed.body)
    })

    it('answers 409 with the colliding record when a rename lands on a taken name, and changes nothing', async () => {
      const target = (await alice.post('/configurations/', record('rename-target'))).body
      const mover = (await alice.post('/configurations/', record('rename-mover'))).body
      const reply = await alice.patch('/configurations/rename-mover', { name: 'RENAME-TARGET', port: 1 })
      expect(reply.status).toBe(409)
      expect(reply.body).toEqual(target)
      expect((await alice.get('/configurations/rename-mover')).body).toEqual(mover)
    })

    it('allows a record to change the case of its own name', async () => {
      const created = (await alice.post('/configurations/', record('casey'))).body.configurations[0]
      const reply = await alice.patch('/configurations/casey', { name: 'Casey' })
      expect(reply.status).toBe(200)
      expect(reply.body.configurations[0]).toEqual({ ...created, name: 'Casey' })
    })

    it('answers 404 for an unknown name', async () => {
      const reply = await alice.patch('/configurations/nobody-here', { port: 1 })
      expect(reply.status).toBe(404)
      expect(reply.body.message).toBe('No configuration is named "nobody-here"')
    })
  })

  describe('DELETE /configurations/:name', () => {
    it('answers 209 with the deleted record, then 404', async () => {
      const created = (await alice.post('/configurations/', record('doomed'))).body
      const reply = await alice.delete('/configurations/DOOMED')
      expect(reply.status).toBe(209)
      expect(reply.body).toEqual(created)
      expect((await alice.get('/configurations/doomed')).status).toBe(404)
      const again = await alice.delete('/configurations/doomed')
      expect(again.status).toBe(404)
      expect(again.body).toEqual({ status: 404, error: 'Not Found', message: 'No configuration is named "doomed"' })
    })
  })

  describe('the routes that are not there', () => {
    it('answers 405 with Allow for a method the resource lacks', async () => {
      const reply = await alice.send('PUT', '/configurations/anything', { json: {} })
      expect(reply.status).toBe(405)
      expect(reply.headers.get('allow')).toBe('GET, HEAD, POST, PATCH, DELETE, OPTIONS')
    })

    it('answers 404 for PATCH and DELETE without a name and for POST with one', async () => {
      expect((await alice.patch('/configurations/', { port: 1 })).status).toBe(404)
      expect((await alice.delete('/configurations/')).status).toBe(404)
      expect((await alice.post('/configurations/x', record('x'))).status).toBe(404)
    })
  })
})

forEachDatabase((database) => {
  describe('GET /configurations/ (list, sort, pagination)', () => {
    let api: RunningApi
    let alice: Client
    // Created in this order, so ids follow it: the default order.
    const rows = [
      { name: 'delta', hostname: 'b.example.com', port: 8080, username: 'carol' },
      { name: 'Alpha', hostname: 'C.example.com', port: 22, username: 'bob' },
      { name: 'charlie', hostname: 'a.example.com', port: 443, username: 'Alice' },
      { name: 'bravo', hostname: 'a.example.com', port: 22, username: 'dave' },
      { name: 'echo-1', hostname: 'a-b.example.com', port: 65535, username: 'erin' },
    ]
    const names = (reply: { body: { configurations: { name: string }[] } }) =>
      reply.body.configurations.map((c) => c.name)

    beforeAll(async () => {
      api = await startApi(database)
      alice = await api.signedIn()
      for (const row of rows) expect((await alice.post('/configurations/', row)).status).toBe(200)
    })
    afterAll(() => api?.close())

    it('lists every record in creation (id) order by default, wrapped, with X-Total-Count', async () => {
      const reply = await alice.get('/configurations/')
      expect(reply.status).toBe(200)
      expect(names(reply)).toEqual(rows.map((r) => r.name))
      expect(reply.body.configurations.map((c: { id: number }) => c.id)).toEqual(
        [...reply.body.configurations.map((c: { id: number }) => c.id)].sort((a, b) => a - b),
      )
      expect(reply.headers.get('x-total-count')).toBe('5')
      expect(Object.keys(reply.body)).toEqual(['configurations'])
    })

    it('answers without the trailing slash too', async () => {
      expect(names(await alice.get('/configurations'))).toEqual(rows.map((r) => r.name))
    })

    it('sorts text fields ascending without regard to case, ties by id', async () => {
      expect(names(await alice.get('/configurations/?sort=name'))).toEqual([
        'Alpha',
        'bravo',
        'charlie',
        'delta',
        'echo-1',
      ])
      // a-b < a.example (hyphen sorts before dot); charlie and bravo tie on hostname: creation order.
      expect(names(await alice.get('/configurations/?sort=hostname'))).toEqual([
        'echo-1',
        'charlie',
        'bravo',
        'delta',
        'Alpha',
      ])
      expect(names(await alice.get('/configurations/?sort=username'))).toEqual([
        'charlie',
        'Alpha',
        'delta',
        'bravo',
        'echo-1',
      ])
    })

    it('sorts port numerically', async () => {
      expect(names(await alice.get('/configurations/?sort=port'))).toEqual([
        'Alpha',
        'bravo',
        'charlie',
        'delta',
        'echo-1',
      ])
    })

    it('sorts descending with a leading minus, ties still by id ascending', async () => {
      expect(names(await alice.get('/configurations/?sort=-port'))).toEqual([
        'echo-1',
        'delta',
        'charlie',
        'Alpha',
        'bravo',
      ])
      expect(names(await alice.get('/configurations/?sort=-name'))).toEqual([
        'echo-1',
        'delta',
        'charlie',
        'bravo',
        'Alpha',
      ])
    })

    it('paginates with a 0-based page and per_page, after sorting', async () => {
      expect(names(await alice.get('/configurations/?sort=name&page=0&per_page=2'))).toEqual(['Alpha', 'bravo'])
      expect(names(await alice.get('/configurations/?sort=name&page=1&per_page=2'))).toEqual(['charlie', 'delta'])
      const last = await alice.get('/configurations/?sort=name&page=2&per_page=2')
      expect(names(last)).toEqual(['echo-1'])
      expect(last.headers.get('x-total-count')).toBe('5')
      expect(names(await alice.get('/configurations/?page=0&per_page=100'))).toEqual(rows.map((r) => r.name))
      expect(names(await alice.get('/configurations/?page=0&per_page=1'))).toEqual(['delta'])
    })

    it('answers an empty list past the last page', async () => {
      const reply = await alice.get('/configurations/?page=3&per_page=2')
      expect(reply.status).toBe(200)
      expect(reply.body).toEqual({ configurations: [] })
      expect((await alice.get('/configurations/?page=999999999&per_page=100')).body).toEqual({ configurations: [] })
    })
  })
})

forEachDatabase(
  (database) => {
    describe('sort order and the server locale', () => {
      let api: RunningApi
      beforeAll(async () => {
        api = await startApi(database)
      })
      afterAll(() => api?.close())

      it('sorts text by character code after lower-casing (- . digits _ letters), on every database alike', async () => {
        const alice = await api.signedIn()
        const usernames = ['n_1', 'N2', 'n1', 'n-1', 'n.1']
        for (const [i, username] of usernames.entries()) {
          expect((await alice.post('/configurations/', record(`r${i}`, { username }))).status).toBe(200)
        }
        const sorted = await alice.get('/configurations/?sort=username')
        expect(sorted.body.configurations.map((c: { username: string }) => c.username)).toEqual([
          'n-1',
          'n.1',
          'n1',
          'N2',
          'n_1',
        ])
      })
    })
  },
  { localeAware: true },
)
