/**
 * The change feed: `GET /configurations/` with `Accept: text/event-stream` streams every create, update and delete as
 * a typed event whose id is the durable sequence in the database; a subscriber that reconnects with `Last-Event-ID`
 * receives every change once, in order. On PostgreSQL, a change written through one instance reaches a subscriber of
 * another (LISTEN/NOTIFY, with polling set too slow to deliver it in time).
 */
import { postgresAvailable } from '@routeless/example-kit/testing'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { serve } from 'routeless/node'
import { createConfigurationsApp } from '../src/app.ts'
import { openServices } from '../src/services.ts'
import { type Client, forEachDatabase, POSTGRES, type RunningApi, record, startApi } from './harness.ts'

interface Event {
  event?: string
  id?: string
  data?: any
}

/** A subscription: its events as they arrive; `close()` leaves. */
class Subscription {
  private buffer = ''
  private readonly decoder = new TextDecoder()
  private constructor(
    private readonly reader: ReadableStreamDefaultReader<Uint8Array>,
    private readonly abort: AbortController,
  ) {}

  static async open(url: string, client: Client, lastEventId?: string): Promise<Subscription> {
    const abort = new AbortController()
    const headers: Record<string, string> = { accept: 'text/event-stream', cookie: `session=${client.cookie}` }
    if (lastEventId !== undefined) headers['last-event-id'] = lastEventId
    const res = await fetch(`${url}/configurations/`, { headers, signal: abort.signal })
    if (res.status !== 200) throw new Error(`subscribe: ${res.status} ${await res.text()}`)
    expect(res.headers.get('content-type')).toBe('text/event-stream')
    return new Subscription(res.body!.getReader(), abort)
  }

  /** The next event (heartbeat comments skipped). */
  async next(): Promise<Event> {
    for (;;) {
      const end = this.buffer.indexOf('\n\n')
      if (end >= 0) {
        const block = this.buffer.slice(0, end)
        this.buffer = this.buffer.slice(end + 2)
        const out: Event = {}
        for (const line of block.split('\n')) {
          if (line.startsWith(':')) continue
          const at = line.indexOf(':')
          const [name, value] = [line.slice(0, at), line.slice(at + 2)]
          if (name === 'data') out.data = JSON.parse(value)
          else if (name === 'event' || name === 'id') out[name] = value
        }
        if (out.data !== undefined) return out
        continue
      }
      const { done, value } = await this.reader.read()
      if (done) throw new Error('the feed ended')
      this.buffer += this.decoder.decode(value, { stream: true })
    }
  }

  close(): void {
    this.reader.cancel().catch(() => {})
    this.abort.abort()
  }
}

forEachDatabase((database) => {
  let api: RunningApi
  let alice: Client
  beforeAll(async () => {
    api = await startApi(database)
    alice = await api.signedIn()
  })
  afterAll(() => api.close())

  it('streams creates, updates and deletes as typed events, after one that says where the feed stands', async () => {
    const feed = await Subscription.open(api.url, alice)
    const ready = await feed.next()
    expect(ready.event).toBe('ready')
    expect(ready.data).toEqual({ seq: Number(ready.id) })
    const created = (await alice.post('/configurations/', record('feed-a'))).body.configurations[0]
    await alice.patch('/configurations/feed-a', { port: 2222 })
    await alice.delete('/configurations/feed-a')
    const events = [await feed.next(), await feed.next(), await feed.next()]
    feed.close()
    expect(events.map((e) => [e.event, e.data])).toEqual([
      ['create', created],
      ['update', { ...created, port: 2222 }],
      ['delete', { ...created, port: 2222 }],
    ])
    const ids = events.map((e) => Number(e.id))
    expect(ids).toEqual([ids[0], ids[0]! + 1, ids[0]! + 2])
    expect(ids[0]).toBeGreaterThan(Number(ready.id))
  })

  it('refuses a Last-Event-ID that is no change id, and list options, with a 400', async () => {
    for (const [path, headers] of [
      ['/configurations/', { 'last-event-id': 'abc' }],
      ['/configurations/?sort=name', {}],
    ] as const) {
      const res = await alice.get(path, { headers: { accept: 'text/event-stream', ...headers } })
      expect(res.status).toBe(400)
    }
  })

  it('resumes from Last-Event-ID with nothing lost or doubled while writes go on (three reconnections)', async () => {
    const first = await Subscription.open(api.url, alice)
    let last = (await first.next()).id!
    const start = Number(last)
    const writes = 60
    const writing = (async () => {
      for (let i = 0; i < writes; i++) {
        const name = `resume-${i % 7}`
        const created = await alice.post('/configurations/', record(name))
        if (created.status === 409) await alice.delete(`/configurations/${name}`)
        else await alice.patch(`/configurations/${name}`, { port: 1000 + i })
      }
    })()
    const seen: number[] = []
    let feed = first
    for (let round = 0; round < 4; round++) {
      // Read a few, leave, come back from the last id seen.
      for (let i = 0; i < 12; i++) {
        const event = await feed.next()
        seen.push(Number(event.id))
        last = event.id!
      }
      feed.close()
      if (round < 3) {
        feed = await Subscription.open(api.url, alice, last)
        expect((await feed.next()).event).toBe('ready')
      }
    }
    await writing
    feed = await Subscription.open(api.url, alice, last)
    await feed.next() // ready
    const total = Number(
      (await api.db
        .selectFrom('changes')
        .select((eb) => eb.fn.max('id').as('m'))
        .executeTakeFirst())!.m,
    )
    while (seen.at(-1)! < total) seen.push(Number((await feed.next()).id))
    feed.close()
    expect(seen).toEqual(Array.from({ length: total - start }, (_, i) => start + 1 + i))
  })
})

describe.skipIf(!(await postgresAvailable()))('PostgreSQL, two instances', () => {
  const database = POSTGRES
  let a: RunningApi
  let b: { url: string; close: () => Promise<void> }
  beforeAll(async () => {
    // Polling too slow to matter: only NOTIFY can bring A's change to B's subscriber within the test.
    a = await startApi(database, { changePoll: 60_000 })
    const opened = await openServices({ ...a.database, changePoll: 60_000 })
    const server = await serve(await createConfigurationsApp(opened.services), { port: 0 })
    b = {
      url: server.url,
      close: async () => {
        await server.close()
        await opened.close()
      },
    }
  })
  afterAll(async () => {
    await b.close()
    await a.close()
  })

  it('brings a change written through instance A to a subscriber of instance B', async () => {
    const alice = await a.signedIn()
    const feed = await Subscription.open(b.url, alice)
    await feed.next() // ready
    const started = Date.now()
    await alice.post('/configurations/', record('across'))
    const event = await feed.next()
    feed.close()
    expect([event.event, event.data.name]).toEqual(['create', 'across'])
    expect(Date.now() - started).toBeLessThan(10_000)
  })
})
