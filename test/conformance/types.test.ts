/** The handler's TypeScript signature is the contract: coercion, validation and binding from the types, on every target. */
import { expect, it } from 'vitest'
import { describeTargets } from '../_targets.ts'
import { fixtureApp } from '../_apps.ts'

const form = (body: string): RequestInit => ({
  method: 'POST',
  body,
  headers: { 'content-type': 'application/x-www-form-urlencoded' },
})
const json = (body: unknown): RequestInit => ({
  method: 'POST',
  body: JSON.stringify(body),
  headers: { 'content-type': 'application/json' },
})

describeTargets('Typed handlers', fixtureApp('typed'), (t) => {
  const call = async (path: string, init?: RequestInit) => {
    const res = await t().request(path, init)
    return { status: res.status, body: await res.json() }
  }
  const errors = async (path: string, init?: RequestInit) => {
    const res = await call(path, init)
    expect(res.status, path).toBe(400)
    return (res.body.errors as { name: string; reason: string; kind: string }[]).map(({ name, reason }) => ({
      name,
      reason,
    }))
  }

  it("rejects the README example's misspelled and repeated name with a 400", async () => {
    expect(await call('/', form('name=Awesome+you'))).toEqual({ status: 200, body: 'hello Awesome you' })
    expect(await errors('/', form('nmae=x'))).toEqual([
      { name: 'nmae', reason: 'is not a parameter (expected name)' },
      { name: 'name', reason: 'is required' },
    ])
    expect(await errors('/', form('name=a&name=b'))).toEqual([{ name: 'name', reason: 'must be a string' }])
  })

  it('coerces path parts to numbers and refuses what is not one', async () => {
    expect(await call('/add/1/2')).toEqual({ status: 200, body: 3 })
    expect(await call('/add/-1.5/2e2')).toEqual({ status: 200, body: 198.5 })
    for (const bad of ['x', '0x10', 'Infinity', '1e999', '%2012%20', '']) {
      const res = await t().request(`/add/1/${bad}`)
      expect(res.status, bad).toBe(bad === '' ? 404 : 400)
    }
  })

  it('answers a missing required keyword and an unknown keyword with 400s naming them', async () => {
    expect(await errors('/kwonly')).toEqual([{ name: 'che', reason: 'is required' }])
    expect(await errors('/kwonly?che=1&x=2')).toEqual([{ name: 'x', reason: 'is not a parameter (expected che)' }])
    expect(await call('/kwonly?che=1')).toEqual({ status: 200, body: { che: '1' } })
  })

  it('takes JSON members as sent, and reads query and form strings by type', async () => {
    expect(await call('/servers/7', json({ port: 22 }))).toEqual({
      status: 200,
      body: { id: 7, port: 22, host: null, same: true, portType: 'number', argType: 'number' },
    })
    expect(await errors('/servers/7', json({ port: '22' }))).toEqual([
      { name: 'port', reason: 'port must be an integer from 1 to 65535' },
    ])
    expect(await call('/servers/7', form('port=22&host=h'))).toMatchObject({
      status: 200,
      body: { port: 22, host: 'h', portType: 'number' },
    })
    expect(await call('/servers/7?port=22', json({ host: 'h' }))).toMatchObject({ status: 200, body: { port: 22 } })
  })

  it('answers a JSON body that is not an object with 400 when the handler takes keywords', async () => {
    for (const [body, what] of [
      [[1], 'an array'],
      ['x', 'a string'],
      [null, 'null'],
      [5, 'a number'],
    ] as const) {
      const res = await call('/servers/7', json(body))
      expect(res, what).toMatchObject({ status: 400, body: { message: `The body must be a JSON object, not ${what}` } })
    }
  })

  it("tells a missing, an unknown and an invalid parameter apart (`kind`), with the type's @errorMessage", async () => {
    const res = await call('/servers/7', json({ port: 0, colour: 'red' }))
    expect(res.status).toBe(400)
    expect(res.body.errors).toEqual([
      { name: 'port', reason: 'port must be an integer from 1 to 65535', kind: 'invalid', own: true },
      { name: 'colour', reason: 'is not a parameter (expected port, host)', kind: 'unknown' },
    ])
    expect((await call('/servers/7', json({}))).body.errors).toEqual([
      { name: 'port', reason: 'is required', kind: 'missing' },
    ])
    expect(await errors('/servers/7', json({ port: 1.5 }))).toEqual([
      { name: 'port', reason: 'port must be an integer from 1 to 65535' },
    ])
    expect(await errors('/servers/7', json({ host: 5, port: 1 }))).toEqual([
      { name: 'host', reason: 'must be a string' },
    ])
    expect(await errors('/servers/7', json({ port: 70000 }))).toEqual([
      { name: 'port', reason: 'port must be an integer from 1 to 65535' },
    ])
  })

  it("applies an interface's own JSDoc constraints and nested @errorMessage", async () => {
    expect((await call('/servers/3', { ...json({ port: 80 }), method: 'PATCH' })).body).toEqual({
      id: 3,
      patch: { port: 80 },
    })
    const empty = await call('/servers/3', { ...json({}), method: 'PATCH' })
    expect(empty.status).toBe(400)
    expect(await errors('/servers/3', { ...json({ labels: ['ok', 'NO'] }), method: 'PATCH' })).toEqual([
      { name: 'labels.1', reason: 'a label is lower-case letters' },
    ])
  })

  it('refuses a field typed `never` (one that must not be sent) in its own words, from JSON and from forms', async () => {
    for (const body of [json({ port: 80, id: 4 }), json({ port: 80, id: null }), form('port=80&id=4')]) {
      const res = await call('/servers/3', { ...body, method: 'PATCH' })
      expect(res.status).toBe(400)
      expect(res.body.errors).toEqual([{ name: 'id', reason: 'id cannot be changed', kind: 'invalid', own: true }])
    }
    expect((await call('/servers/3', { ...form('port=80'), method: 'PATCH' })).body).toEqual({
      id: 3,
      patch: { port: 80 },
    })
  })

  it('takes only the body kinds the class consumes: 415 listing them', async () => {
    const res = await t().request('/servers/7', {
      method: 'POST',
      body: '<a/>',
      headers: { 'content-type': 'application/xml' },
    })
    expect(res.status).toBe(415)
    expect(res.headers.get('accept-post')).toBe(
      'application/json, application/x-www-form-urlencoded, multipart/form-data',
    )
    expect((await res.json()).message).toBe('Unsupported Content-Type: application/xml')
  })

  it('takes `File` parameters from multipart parts only', async () => {
    const upload = new FormData()
    upload.set('file', new File(['hello'], 'a.txt', { type: 'text/plain' }))
    upload.set('note', 'n')
    expect(await call('/servers/7', { method: 'PUT', body: upload })).toEqual({
      status: 200,
      body: { id: 7, name: 'a.txt', size: 5, text: 'hello', note: 'n' },
    })
    expect(await errors('/servers/7', { ...json({ file: 'hello' }), method: 'PUT' })).toEqual([
      { name: 'file', reason: 'must be a file (a multipart/form-data part)' },
    ])
    expect(await errors('/servers/7', { ...form('file=hello'), method: 'PUT' })).toEqual([
      { name: 'file', reason: 'must be a file (a multipart/form-data part)' },
    ])
    expect(await errors('/servers/7', { ...form('note=x'), method: 'PUT' })).toEqual([
      { name: 'file', reason: 'is required' },
    ])
  })

  it('folds nested form fields into the objects the type declares, and reads a form value as JSON where an object is declared', async () => {
    const nested = form('user[name]=Ann&user.age=30&user[address][city]=Oslo&tags=a&tags=b')
    expect(await call('/users', nested)).toEqual({
      status: 200,
      body: { created: { name: 'Ann', age: 30, address: { city: 'Oslo' } }, tags: ['a', 'b'] },
    })
    expect((await call('/users', form(`user=${encodeURIComponent('{"name":"Bo","age":4}')}&tags=x`))).body).toEqual({
      created: { name: 'Bo', age: 4 },
      tags: ['x'],
    })
    expect(await errors('/users', form('user[name]=Ann&user[age]=old&tags=a'))).toEqual([
      { name: 'user.age', reason: 'must be a number' },
    ])
    expect(await errors('/users', form('user[name]=&user[age]=1&tags=a'))).toEqual([
      { name: 'user.name', reason: 'must NOT have fewer than 1 characters' },
    ])
    expect(await errors('/users', form('user[name]=A&user[age]=1&user[colour]=red&tags=a'))).toEqual([
      { name: 'user.colour', reason: 'is not a known field' },
    ])
    expect(await errors('/users', form('user[name]=A&user[age]=1&user[a][b][c][d][e][f][g][h][i]=x&tags=a'))).toEqual([
      { name: 'user[a][b][c][d][e][f][g][h][i]', reason: 'is nested too deeply or indexed over 1000' },
    ])
    expect(
      await errors('/users', form('user[name]=A&user[age]=1&user[address][city]=x&user[address][1001]=a&tags=a')),
    ).toEqual([{ name: 'user[address][1001]', reason: 'is nested too deeply or indexed over 1000' }])
  })

  it('reads a @json field and a documented object field from one part of JSON text each, and refuses text that is not JSON', async () => {
    const parts = (fields: Record<string, string | string[]>) => {
      const body = new FormData()
      for (const [k, v] of Object.entries(fields)) for (const one of [v].flat()) body.append(k, one)
      return { method: 'POST', body }
    }
    const person = '{"city":"Lagos"}'
    expect(await call('/screenings', parts({ countries: '["NG","GH"]', person }))).toEqual({
      status: 200,
      body: { countries: ['NG', 'GH'], person: { city: 'Lagos' } },
    })
    expect(
      (
        await call(
          '/screenings',
          form(`countries=${encodeURIComponent('["KE"]')}&person=${encodeURIComponent(person)}`),
        )
      ).body,
    ).toEqual({ countries: ['KE'], person: { city: 'Lagos' } })
    expect((await call('/screenings', json({ countries: ['ZA'], person: { city: 'Durban' } }))).body).toEqual({
      countries: ['ZA'],
      person: { city: 'Durban' },
    })
    // Sent twice, the last counts (one JSON text is this field's form): `GH` is not JSON.
    expect(await errors('/screenings', parts({ countries: ['NG', 'GH'], person }))).toEqual([
      { name: 'countries', reason: 'must be sent once, as JSON text (it came 2 times)' },
    ])
    expect((await call('/screenings', parts({ countries: ['["NG"]', '["GH"]'], person }))).body.countries).toEqual([
      'GH',
    ])
    expect(await errors('/screenings', parts({ countries: 'NG', person }))).toEqual([
      { name: 'countries', reason: 'must be an array, got "NG"' },
    ])
    expect(await errors('/screenings', parts({ countries: '[]', person }))).toEqual([
      { name: 'countries', reason: 'must NOT have fewer than 1 items, got "[]"' },
    ])
    expect(await errors('/screenings', parts({ countries: '["ng"]', person }))).toEqual([
      { name: 'countries.0', reason: 'must match pattern "^[A-Z]{2}$"' },
    ])
    expect(await errors('/screenings', parts({ countries: '["NG"', person }))).toEqual([
      { name: 'countries', reason: 'must be an array, got "["NG""' },
    ])
    expect(
      await errors('/screenings', parts({ countries: '["NG"]', person, labels: '{"a":"1","b":"2","c":"3"}' })),
    ).toEqual([{ name: 'labels', reason: expect.stringMatching(/^must NOT have more than 2 properties, got /) }])
    expect(await errors('/screenings', parts({ countries: '["NG"]', person: '{"city":' }))).toEqual([
      { name: 'person', reason: 'must be an object, got "{"city":"' },
    ])
  })

  it('words a failure by its keyword where @errorMessage gives one text per keyword, and generates the others', async () => {
    const screening = (aliases: unknown) => json({ countries: ['NG'], person: { city: 'Lagos' }, aliases })
    const own = async (aliases: unknown) => (await call('/screenings', screening(aliases))).body.errors
    expect(await own(['a', 'b', 'c', 'd'])).toEqual([
      { name: 'aliases', reason: 'at most 3 aliases', kind: 'invalid', own: true },
    ])
    expect(await own(['a', 'abcdef'])).toEqual([
      { name: 'aliases.1', reason: 'an alias has at most 5 characters', kind: 'invalid', own: true },
    ])
    expect(await own(['a', 7])).toEqual([{ name: 'aliases.1', reason: 'must be a string', kind: 'invalid' }])
    expect(await own('a')).toEqual([{ name: 'aliases', reason: 'must be an array, got "a"', kind: 'invalid' }])
    expect((await call('/screenings', screening(['abc']))).status).toBe(200)
  })

  it("refuses a field that walks into an object's prototype, and pollutes nothing", async () => {
    const multipart = new FormData()
    for (const [k, v] of [
      ['user[name]', 'A'],
      ['user[age]', '1'],
      ['tags', 'a'],
      ['user[__proto__][polluted]', 'yes'],
    ])
      multipart.append(k!, v!)
    for (const body of [
      form('user[name]=A&user[age]=1&tags=a&user[__proto__][polluted]=yes'),
      form('user[name]=A&user[age]=1&tags=a&user.__proto__.polluted=yes'),
      form('user[name]=A&user[age]=1&user[__proto__]=yes&tags=a'),
      { method: 'POST', body: multipart },
    ]) {
      const res = await call('/users', body)
      expect(res.status).toBe(400)
      expect(res.body.errors).toEqual([expect.objectContaining({ reason: 'is not a known field', kind: 'unknown' })])
      expect(({} as Record<string, unknown>).polluted).toBeUndefined()
    }
    const sent = await call(
      '/users',
      json({ user: { name: 'A', age: 1, ['__proto__']: { polluted: 'yes' } }, tags: [] }),
    )
    expect(sent.status).toBe(400)
    expect(({} as Record<string, unknown>).polluted).toBeUndefined()
  })

  it('gives the handler Dates wherever its type declares them: members, list items, Date | null', async () => {
    const at = '2024-01-02T03:04:05.000Z'
    expect(
      (await call('/meetings', json({ meeting: { at, reminders: [at] }, days: [at, at], until: at }))).body,
    ).toEqual({ at: `Date ${at}`, reminders: [`Date ${at}`], days: [`Date ${at}`, `Date ${at}`], until: `Date ${at}` })
    expect((await call('/meetings', json({ meeting: { at }, until: null }))).body).toEqual({
      at: `Date ${at}`,
      until: null,
    })
    expect(
      (await call('/meetings', form(`meeting[at]=${at}&meeting[reminders][0]=${at}&days=${at}&days=${at}&until=`)))
        .body,
    ).toEqual({ at: `Date ${at}`, reminders: [`Date ${at}`], days: [`Date ${at}`, `Date ${at}`], until: null })
    expect(await errors('/meetings', json({ meeting: { at: 'soon' } }))).toEqual([
      { name: 'meeting.at', reason: 'must be an ISO 8601 date' },
    ])
    expect(await errors('/meetings', form(`meeting[at]=${at}&days=${at}&days=tomorrow`))).toEqual([
      { name: 'days.1', reason: 'must be an ISO 8601 date' },
    ])
  })

  it('takes `id?: string` as an optional path part', async () => {
    expect(await call('/opt')).toEqual({ status: 200, body: { id: null } })
    expect(await call('/opt/5')).toEqual({ status: 200, body: { id: '5' } })
  })

  it('coerces literal unions, arrays (repeated or comma lists), booleans, dates and constrained numbers', async () => {
    const ok = await call(
      '/items?sort=port&ids=1,2&ids=3&active=yes&since=2024-01-02T03:04:05Z&page=2&email=a@b.co&code=abc',
    )
    expect(ok).toEqual({
      status: 200,
      body: {
        sort: 'port',
        ids: [1, 2, 3],
        active: true,
        since: 'Date 2024-01-02T03:04:05.000Z',
        page: 2,
        email: 'a@b.co',
        code: 'abc',
      },
    })
    expect((await call('/items?active=OFF')).body).toEqual({ active: false })
    expect((await call('/items?active')).body).toEqual({ active: true })
  })

  it('reads a list of strings from repeated keys only: a comma is part of a text', async () => {
    expect((await call('/items?names=Hello,%20world!&names=b')).body).toEqual({ names: ['Hello, world!', 'b'] })
    expect((await call('/items?names=a,b')).body).toEqual({ names: ['a,b'] })
    expect((await call('/items?ids=1,2')).body).toEqual({ ids: [1, 2] })
  })

  it('lists every failing parameter with what was expected', async () => {
    expect(await errors('/items?sort=bad&ids=1,x&page=0&email=nope&code=ABC&since=yesterday&active=maybe')).toEqual([
      { name: 'sort', reason: 'must be one of "name", "port", got "bad"' },
      { name: 'ids.1', reason: 'must be a number' },
      { name: 'page', reason: 'must be >= 1, got "0"' },
      { name: 'email', reason: 'must match format "email", got "nope"' },
      { name: 'code', reason: 'must match pattern "^[a-z]+$", got "ABC"' },
      { name: 'since', reason: 'must be an ISO 8601 date, got "yesterday"' },
      { name: 'active', reason: 'must be a boolean, got "maybe"' },
    ])
  })

  it('applies JSDoc constraints of a type alias to a path part, and keyword defaults', async () => {
    expect(await call('/pages/3?size=5')).toEqual({ status: 200, body: { page: 3, size: 5 } })
    expect(await call('/pages/3')).toEqual({ status: 200, body: { page: 3, size: 10 } })
    expect(await errors('/pages/1.5')).toEqual([{ name: 'page', reason: 'must be an integer, got "1.5"' }])
    expect(await errors('/pages/0')).toEqual([{ name: 'page', reason: 'must be >= 1, got "0"' }])
  })

  it('accepts any keyword where the type has an index signature', async () => {
    expect(await call('/open?a=1&b=2')).toEqual({ status: 200, body: { a: '1', b: '2' } })
  })

  it('checks booleans and literal unions in path parts', async () => {
    expect(await call('/flags/on/red')).toEqual({ status: 200, body: { flag: true, color: 'red' } })
    expect(await errors('/flags/maybe/pink')).toEqual([
      { name: 'flag', reason: 'must be a boolean, got "maybe"' },
      { name: 'color', reason: 'must be one of "blue", "green", "red", got "pink"' },
    ])
  })

  it('checks each part a rest parameter takes', async () => {
    expect(await call('/rest/1/2/3')).toEqual({ status: 200, body: [1, 2, 3] })
    expect(await errors('/rest/1/x')).toEqual([{ name: 'ids.1', reason: 'must be a number, got "x"' }])
  })

  it('validates JSON bodies against nested types, unknown nested fields included', async () => {
    const user = { name: 'a', age: 3, address: { city: 'x' }, referrer: { name: 'b', age: 40 } }
    expect(await call('/users', json({ user, tags: ['t'] }))).toEqual({
      status: 200,
      body: { created: user, tags: ['t'] },
    })
    expect(await errors('/users', json({ user: { ...user, age: -1 }, tags: [] }))).toEqual([
      { name: 'user.age', reason: 'must be >= 0' },
    ])
    expect(await errors('/users', json({ user: { ...user, address: { town: 'x' } }, tags: [] }))).toEqual([
      { name: 'user.address.city', reason: 'is required' },
    ])
    expect(
      await errors('/users', json({ user: { ...user, referrer: { name: 'b', age: 1, extra: 1 } }, tags: [] })),
    ).toEqual([{ name: 'user.referrer.extra', reason: 'is not a known field' }])
    expect(await errors('/users', json({ tags: [1] }))).toEqual([
      { name: 'tags.0', reason: 'must be a string' },
      { name: 'user', reason: 'is required' },
    ])
  })

  it('leaves untyped parameters as they were (strings, any keyword)', async () => {
    expect(await call('/legacy/z?q=1')).toEqual({ status: 200, body: { anything: 'z', kwargs: { q: '1' } } })
  })

  it('reads JSDoc types in .js controllers', async () => {
    expect(await call('/scripted/4?times=3')).toEqual({ status: 200, body: 12 })
    expect(await errors('/scripted/x')).toEqual([{ name: 'n', reason: 'must be a number, got "x"' }])
  })
})
