/** Login, logout and the session that carries a login: cookie and header forms, expiry, and 403 without one. */
import { lookupKey } from '@routeless/example-kit'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { ALICE, BOB, Client, forEachDatabase, record, type RunningApi, SQLITE, startApi } from './harness.ts'

const FORBIDDEN = {
  status: 403,
  error: 'Forbidden',
  message: 'Log in first: POST /login gives a session cookie and an X-Session-Token for Authorization: Bearer',
}

/** Every route that needs a session, with a valid request for each. */
const GUARDED: [string, string, unknown][] = [
  ['GET', '/configurations/', undefined],
  ['GET', '/configurations/?sort=port&page=0&per_page=1', undefined],
  ['GET', '/configurations/guarded', undefined],
  ['HEAD', '/configurations/guarded', undefined],
  ['POST', '/configurations/', record('guarded-2')],
  ['PATCH', '/configurations/guarded', { port: 1 }],
  ['DELETE', '/configurations/guarded', undefined],
  ['POST', '/logout', undefined],
]

forEachDatabase((database) => {
  let api: RunningApi
  beforeAll(async () => {
    api = await startApi(database)
    const alice = await api.signedIn()
    await alice.post('/configurations/', record('guarded'))
  })
  afterAll(() => api?.close())

  describe('POST /login', () => {
    it('answers "Authorized" with an HttpOnly SameSite cookie and the token in X-Session-Token', async () => {
      const client = api.client()
      const reply = await client.post('/login', ALICE)
      expect(reply.status).toBe(200)
      expect(reply.text).toBe('"Authorized"')
      const token = reply.headers.get('x-session-token')!
      expect(token).toMatch(/^[A-Za-z0-9_-]{43}$/) // 32 random bytes
      expect(reply.headers.get('set-cookie')).toBe(`session=${token}; Max-Age=28800; Path=/; HttpOnly; SameSite=Strict`)
      expect(reply.headers.get('cache-control')).toBe('no-store')
      expect((await client.get('/configurations/guarded')).status).toBe(200)
    })

    it('accepts name in place of username', async () => {
      const client = api.client()
      expect((await client.post('/login', { name: BOB.username, password: BOB.password })).text).toBe('"Authorized"')
      expect((await client.get('/configurations/')).status).toBe(200)
    })

    it.each([
      ['a wrong password', { username: 'alice', password: 'wrong' }],
      ['an unknown user', { username: 'mallory', password: 'secret' }],
      ["another user's password", { username: 'bob', password: ALICE.password }],
      ['an empty password', { username: 'alice', password: '' }],
      ['a username with NUL', { username: 'ali\u0000ce', password: 'secret' }],
      ['a username with spaces', { username: 'alice smith', password: 'secret' }],
      ['a username of 65 characters', { username: 'a'.repeat(65), password: 'secret' }],
      ['a password with NUL', { username: 'alice', password: 'sec\u0000ret' }],
    ])('answers 401 "Unauthorized" for %s, and no session', async (_, body) => {
      const client = api.client()
      const reply = await client.post('/login', body)
      expect(reply.status).toBe(401)
      expect(reply.text).toBe('"Unauthorized"')
      expect(reply.headers.get('set-cookie')).toBeNull()
      expect(reply.headers.get('x-session-token')).toBeNull()
    })

    it.each([
      ['no password', { username: 'alice' }, ['password'], 'password is required'],
      ['no username', { password: 'secret' }, ['username'], 'username is required'],
      [
        'both username and name',
        { username: 'alice', name: 'alice', password: 'secret' },
        ['name'],
        'give username or name, not both',
      ],
      ['a number for username', { username: 1, password: 'secret' }, ['username'], 'username must be a string'],
      ['a number for name', { name: 1, password: 'secret' }, ['name'], 'name must be a string'],
      ['an object for password', { username: 'alice', password: {} }, ['password'], 'password must be a string'],
      [
        'an extra field',
        { username: 'alice', password: 'secret', remember: true },
        ['remember'],
        'remember is not a parameter (expected username, name, password)',
      ],
    ])('answers 400 naming the field for %s', async (_, body, fields, message) => {
      const reply = await api.client().post('/login', body)
      expect(reply.status).toBe(400)
      expect(reply.body.errors.map((e: { field: string }) => e.field)).toEqual(fields)
      expect(reply.body.message).toBe(message)
    })

    it('answers 415 for a form body, and 400 for broken JSON', async () => {
      const form = await api.client().send('POST', '/login', {
        body: 'username=alice&password=secret',
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
      })
      expect(form.status).toBe(415)
      const broken = await api
        .client()
        .send('POST', '/login', { body: '{"username":', headers: { 'content-type': 'application/json' } })
      expect(broken.status).toBe(400)
    })
  })

  describe('without a session', () => {
    it.each(GUARDED)('%s %s answers 403', async (method, path, json) => {
      const reply = await api.client().send(method, path, json === undefined ? {} : { json })
      expect(reply.status).toBe(403)
      if (method !== 'HEAD') expect(reply.body).toEqual(FORBIDDEN)
    })

    it('answers 403 before looking at the body', async () => {
      const reply = await api
        .client()
        .send('POST', '/configurations/', { body: 'not json', headers: { 'content-type': 'text/plain' } })
      expect(reply.status).toBe(403)
    })

    it.each([
      ['a made-up cookie', { cookie: 'session=AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA' }],
      ['a malformed cookie', { cookie: 'session=%%%' }],
      ['an empty cookie', { cookie: 'session=' }],
      ['another cookie only', { cookie: 'theme=dark' }],
      ['a made-up bearer token', { authorization: 'Bearer AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA' }],
      ['a Basic authorization', { authorization: `Basic ${btoa('alice:secret')}` }],
    ])('answers 403 for %s', async (_, headers) => {
      expect((await api.client().send('GET', '/configurations/', { headers })).status).toBe(403)
    })

    it('answers OPTIONS with Allow, as it says nothing about the records', async () => {
      const reply = await api.client().send('OPTIONS', '/configurations/guarded')
      expect(reply.status).toBe(204)
      expect(reply.headers.get('allow')).toBe('GET, HEAD, POST, PATCH, DELETE, OPTIONS')
    })

    it('does not check the session for login itself', async () => {
      const reply = await api.client().send('POST', '/login', { json: ALICE, headers: { cookie: 'session=bogus' } })
      expect(reply.status).toBe(200)
    })
  })

  describe('the Cookie header', () => {
    it.each([
      ['among other cookies, unspaced', (t: string) => `theme=dark;session=${t};lang=de`],
      ['with spaces around it', (t: string) => `  lang=de ;  session=${t}  `],
      ['after a cookie whose value holds "=" and quotes', (t: string) => `prefs="a=b"; session=${t}`],
      [
        'twice (the first one counts, as browsers send the most specific first)',
        (t: string) => `session=${t}; session=stale`,
      ],
    ])('finds the session cookie %s', async (_, header) => {
      const token = (await api.client().post('/login', ALICE)).headers.get('x-session-token')!
      const bare = new Client(api.url)
      const reply = await bare.send('GET', '/configurations/', { headers: { cookie: header(token) } })
      expect(reply.status).toBe(200)
    })

    it('does not take a cookie whose name only ends in "session", nor a stale one placed first', async () => {
      const token = (await api.client().post('/login', ALICE)).headers.get('x-session-token')!
      const bare = new Client(api.url)
      for (const cookie of [`my_session=${token}`, `session=stale; session=${token}`]) {
        expect((await bare.send('GET', '/configurations/', { headers: { cookie } })).status).toBe(403)
      }
    })
  })

  describe('the header form', () => {
    it('lets a client without cookies send the X-Session-Token back as Authorization: Bearer', async () => {
      const login = await api.client().post('/login', ALICE)
      const token = login.headers.get('x-session-token')!
      const bare = new Client(api.url) // keeps no cookie
      const reply = await bare.send('GET', '/configurations/guarded', { headers: { authorization: `Bearer ${token}` } })
      expect(reply.status).toBe(200)
      expect(reply.body.configurations[0].name).toBe('guarded')
      const logout = await bare.send('POST', '/logout', { headers: { authorization: `bearer ${token}` } })
      expect(logout.text).toBe('"Success"')
      expect(
        (await bare.send('GET', '/configurations/', { headers: { authorization: `Bearer ${token}` } })).status,
      ).toBe(403)
    })

    it('judges a request with an Authorization header by that header alone', async () => {
      const alice = await api.signedIn()
      const reply = await alice.send('GET', '/configurations/', { headers: { authorization: 'Bearer not-a-session' } })
      expect(reply.status).toBe(403)
      expect((await alice.get('/configurations/')).status).toBe(200)
    })
  })

  describe('POST /logout', () => {
    it('answers "Success", clears the cookie, and ends only its own session', async () => {
      const first = await api.signedIn()
      const second = await api.signedIn()
      const bob = await api.signedIn(BOB)
      const token = first.cookie
      const reply = await first.post('/logout')
      expect(reply.status).toBe(200)
      expect(reply.text).toBe('"Success"')
      expect(reply.headers.get('set-cookie')).toBe('session=; Max-Age=0; Path=/; HttpOnly; SameSite=Strict')
      expect(first.cookie).toBeUndefined()
      // The old token is dead even when a client keeps sending it.
      expect(
        (await api.client().send('GET', '/configurations/', { headers: { cookie: `session=${token}` } })).status,
      ).toBe(403)
      expect((await first.get('/configurations/')).status).toBe(403)
      expect((await second.get('/configurations/')).status).toBe(200)
      expect((await bob.get('/configurations/')).status).toBe(200)
    })

    it('answers 403 when the session has already ended', async () => {
      const client = await api.signedIn()
      const token = client.cookie
      await client.post('/logout')
      const again = await api.client().send('POST', '/logout', { headers: { cookie: `session=${token}` } })
      expect(again.status).toBe(403)
      expect(again.body).toEqual(FORBIDDEN)
    })

    it('rejects a body with fields', async () => {
      const client = await api.signedIn()
      const reply = await client.send('POST', '/logout', { json: { everywhere: true } })
      expect(reply.status).toBe(400)
      expect(reply.body.errors).toEqual([
        { field: 'everywhere', message: 'everywhere is not a parameter: this handler takes none' },
      ])
      expect((await client.get('/configurations/')).status).toBe(200)
      expect((await client.send('POST', '/logout', { json: {} })).status).toBe(200)
    })
  })

  describe('what the database keeps', () => {
    it('stores sessions by the SHA-256 of their token, never the token', async () => {
      const client = await api.signedIn()
      const rows = await api.db.selectFrom('sessions').select('token_hash').execute()
      expect(rows.some((r) => r.token_hash === client.cookie)).toBe(false)
      expect(rows.some((r) => r.token_hash === lookupKey(client.cookie!))).toBe(true)
    })

    it('stores passwords only as scrypt hashes', async () => {
      const users = await api.db.selectFrom('users').selectAll().orderBy('username').execute()
      expect(users.map((u) => u.username)).toEqual(['alice', 'bob'])
      for (const user of users) {
        expect(user.password_hash).toMatch(/^scrypt\$16384\$8\$1\$[\w-]+\$[\w-]+$/)
        expect(user.password_hash).not.toContain(ALICE.password)
        expect(user.password_hash).not.toContain(BOB.password)
      }
    })

    it('ends the sessions of a user whose password changes, and only theirs', async () => {
      const bob = await api.signedIn(BOB)
      const alice = await api.signedIn()
      expect(await api.services.users.save(BOB.username, BOB.password)).toBe('unchanged')
      expect((await bob.get('/configurations/')).status).toBe(200)
      expect(await api.services.users.save(BOB.username, 'new-password')).toBe('updated')
      expect((await bob.get('/configurations/')).status).toBe(403)
      expect((await alice.get('/configurations/')).status).toBe(200)
      expect((await api.client().post('/login', BOB)).status).toBe(401)
      expect((await api.client().post('/login', { username: 'bob', password: 'new-password' })).status).toBe(200)
      await api.services.users.save(BOB.username, BOB.password)
    })
  })
})

forEachDatabase((database) => {
  describe('expiry', () => {
    const ttl = 60_000
    let now = Date.UTC(2030, 0, 1)
    let api: RunningApi
    beforeAll(async () => {
      api = await startApi(database, { sessionTtl: ttl, now: () => now })
    })
    afterAll(() => api?.close())

    it('ends a session its lifetime after login, however much it is used', async () => {
      const client = await api.signedIn()
      expect(client.cookie).toBeDefined()
      now += ttl - 1
      expect((await client.get('/configurations/')).status).toBe(200)
      now += 1
      expect((await client.get('/configurations/')).status).toBe(403)
    })

    it('sets the cookie Max-Age to the session lifetime', async () => {
      const reply = await api.client().post('/login', ALICE)
      expect(reply.headers.get('set-cookie')).toContain('; Max-Age=60;')
    })

    it('sweeps expired sessions out of the database at the next login', async () => {
      await api.signedIn()
      now += ttl
      const alive = await api.signedIn()
      const rows = await api.db.selectFrom('sessions').select('token_hash').execute()
      expect(rows.map((r) => r.token_hash)).toEqual([lookupKey(alive.cookie!)])
    })
  })
})

describe('with SECURE_COOKIES', () => {
  let api: RunningApi
  beforeAll(async () => {
    api = await startApi(SQLITE, { secureCookies: true })
  })
  afterAll(() => api?.close())

  it('marks the session cookie Secure, when set and when cleared', async () => {
    const client = api.client()
    const login = await client.post('/login', ALICE)
    expect(login.headers.get('set-cookie')).toMatch(/; HttpOnly; Secure; SameSite=Strict$/)
    const logout = await client.post('/logout')
    expect(logout.headers.get('set-cookie')).toBe('session=; Max-Age=0; Path=/; HttpOnly; Secure; SameSite=Strict')
  })
})
