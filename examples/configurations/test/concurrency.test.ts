/** Name uniqueness is the database's: racing requests for one name give exactly one winner, on both databases. */
import { afterAll, beforeAll, expect, it } from 'vitest'
import { type Client, forEachDatabase, record, type RunningApi, startApi } from './harness.ts'

const N = 25

forEachDatabase((database) => {
  let api: RunningApi
  let clients: Client[]
  beforeAll(async () => {
    api = await startApi(database)
    // Several sessions, so that the requests really come from different clients.
    clients = await Promise.all(Array.from({ length: 5 }, () => api.signedIn()))
  })
  afterAll(() => api?.close())

  it(`gives ${N} concurrent creates of one name exactly one 200 and ${N - 1} 409s naming the winner`, async () => {
    const replies = await Promise.all(
      Array.from({ length: N }, (_, i) =>
        clients[i % clients.length]!.post('/configurations/', record(i % 2 ? 'Race' : 'race', { port: i + 1 })),
      ),
    )
    const winners = replies.filter((r) => r.status === 200)
    const losers = replies.filter((r) => r.status === 409)
    expect(winners).toHaveLength(1)
    expect(losers).toHaveLength(N - 1)
    for (const loser of losers) expect(loser.body).toEqual(winners[0]!.body)
    const list = await clients[0]!.get('/configurations/')
    expect(list.body).toEqual(winners[0]!.body)
  })

  it(`gives ${N} concurrent renames onto one free name exactly one 200`, async () => {
    for (let i = 0; i < N; i++)
      expect((await clients[0]!.post('/configurations/', record(`mover-${i}`))).status).toBe(200)
    const replies = await Promise.all(
      Array.from({ length: N }, (_, i) =>
        clients[i % clients.length]!.patch(`/configurations/mover-${i}`, { name: 'destination' }),
      ),
    )
    const winners = replies.filter((r) => r.status === 200)
    expect(winners).toHaveLength(1)
    expect(replies.filter((r) => r.status === 409)).toHaveLength(N - 1)
    const named = await clients[0]!.get('/configurations/destination')
    expect(named.body).toEqual(winners[0]!.body)
    expect((await clients[0]!.get('/configurations/')).headers.get('x-total-count')).toBe(String(N + 1))
  })

  it(`gives ${N} concurrent deletes of one record exactly one 209`, async () => {
    const replies = await Promise.all(
      Array.from({ length: N }, (_, i) => clients[i % clients.length]!.delete('/configurations/destination')),
    )
    expect(replies.filter((r) => r.status === 209)).toHaveLength(1)
    expect(replies.filter((r) => r.status === 404)).toHaveLength(N - 1)
  })
})
