import assert from 'node:assert/strict'
import { test } from 'node:test'
import { createApp } from 'routeless'

// The whole app in-process: app.request() answers as the server would, without a socket.
const app = await createApp('controllers')

test('GET /?name=you greets you', async () => {
  const res = await app.request('/?name=you')
  assert.equal(res.status, 200)
  assert.deepEqual(await res.json(), { message: 'Hello, you!' })
})

test('GET /add/2/3 adds the path parts as numbers', async () => {
  assert.deepEqual(await (await app.request('/add/2/3')).json(), { sum: 5 })
})

test('GET /add/two/3 answers 400: the signature says number', async () => {
  assert.equal((await app.request('/add/two/3')).status, 400)
})
