import { expect, test } from 'bun:test'
import { createApp } from 'routeless'

// The whole app in-process: app.request() answers as the server would, without a socket.
const app = await createApp('controllers')

test('GET /?name=you greets you', async () => {
  const res = await app.request('/?name=you')
  expect(res.status).toBe(200)
  expect(await res.json()).toEqual({ message: 'Hello, you!' })
})

test('GET /add/2/3 adds the path parts as numbers', async () => {
  expect(await (await app.request('/add/2/3')).json()).toEqual({ sum: 5 })
})

test('GET /add/two/3 answers 400: the signature says number', async () => {
  expect((await app.request('/add/two/3')).status).toBe(400)
})
