import { expect, it } from 'vitest'
import { describeTargets, IN_PROCESS, type Target } from '../_targets.ts'
import { fixtureApp, logged } from '../_apps.ts'

/** One block of a `text/event-stream` body: an event's fields, or comments only (a heartbeat). */
interface Block {
  event?: string
  id?: string
  retry?: string
  data?: string
  comments: string[]
  raw: string
}

function parse(raw: string): Block {
  const out: Block = { comments: [], raw }
  for (const line of raw.split('\n')) {
    if (line.startsWith(':')) out.comments.push(line.slice(1).trim())
    else {
      const at = line.indexOf(':')
      const name = line.slice(0, at) as 'event' | 'id' | 'retry' | 'data'
      const value = line.slice(at + 1).replace(/^ /, '')
      out[name] = name === 'data' && out.data !== undefined ? `${out.data}\n${value}` : value
    }
  }
  return out
}

/** Reads a stream's blocks one at a time, as they arrive; `close()` leaves (the client goes away). */
class EventReader {
  private buffer = ''
  private readonly reader: ReadableStreamDefaultReader<Uint8Array>
  private readonly decoder = new TextDecoder()
  constructor(
    readonly res: Response,
    private readonly abort?: AbortController,
  ) {
    this.reader = res.body!.getReader()
  }
  /** The next block, or undefined at the end of the stream. */
  async next(): Promise<Block | undefined> {
    for (;;) {
      const end = this.buffer.indexOf('\n\n')
      if (end >= 0) {
        const raw = this.buffer.slice(0, end)
        this.buffer = this.buffer.slice(end + 2)
        return parse(raw)
      }
      const { done, value } = await this.reader.read()
      if (done) return undefined
      this.buffer += this.decoder.decode(value, { stream: true })
    }
  }
  /** The next block that is an event (heartbeats skipped). */
  async event(): Promise<Block | undefined> {
    for (let b = await this.next(); b; b = await this.next()) if (b.data !== undefined || b.id !== undefined) return b
    return undefined
  }
  async rest(): Promise<Block[]> {
    const out: Block[] = []
    for (let b = await this.next(); b; b = await this.next()) out.push(b)
    return out
  }
  close(): void {
    this.reader.cancel().catch(() => {})
    this.abort?.abort()
  }
}

async function open(t: Target, path: string, headers: Record<string, string> = {}): Promise<EventReader> {
  const abort = new AbortController()
  const res = await t.request(path, { headers, signal: abort.signal })
  return new EventReader(res, abort)
}

describeTargets('Server-sent events', fixtureApp('sse', { sse: { heartbeat: 50 } }), (t) => {
  it('answers text/event-stream with each event on the wire as the spec writes it', async () => {
    const res = await t().request('/events/lines')
    expect(res.status).toBe(200)
    expect(res.headers.get('content-type')).toBe('text/event-stream')
    expect(res.headers.get('cache-control')).toBe('no-cache')
    // Text data over several lines (LF, CRLF) is one data line each; a leading space survives the client's strip.
    expect(await res.text()).toBe('retry: 2500\ndata: one\ndata: two\ndata: three\n\nid: x-1\ndata:  leading space\n\n')
  })

  it('sends typed, named events with their ids, the data as JSON', async () => {
    const blocks = await (await open(t(), '/events/count')).rest()
    expect(blocks.map((b) => [b.event, b.id, b.data && JSON.parse(b.data)])).toEqual([
      ['tick', '1', { n: 1, left: 4 }],
      ['tick', '2', { n: 2, left: 3 }],
      ['tick', '3', { n: 3, left: 2 }],
      ['tick', '4', { n: 4, left: 1 }],
      ['tick', '5', { n: 5, left: 0 }],
      ['done', undefined, { total: 5 }],
    ])
  })

  it('resumes after the Last-Event-ID a reconnecting client sends (or the query keyword lastEventId, under it)', async () => {
    const first = await open(t(), '/events/count')
    expect((await first.event())?.id).toBe('1')
    const last = (await first.event())!.id!
    first.close()
    const resumed = await (await open(t(), '/events/count', { 'last-event-id': last })).rest()
    expect(resumed.map((b) => b.id ?? b.event)).toEqual(['3', '4', '5', 'done'])
    const byQuery = await (await open(t(), '/events/count?lastEventId=4')).rest()
    expect(byQuery.map((b) => b.id ?? b.event)).toEqual(['5', 'done'])
    // EventSource keeps its URL and sends the newer position in the header: the header wins.
    const both = await (await open(t(), '/events/count?lastEventId=1', { 'last-event-id': '3' })).rest()
    expect(both.map((b) => b.id ?? b.event)).toEqual(['4', '5', 'done'])
  })

  it('answers application/jsonl, one event per line, where the Accept header prefers it', async () => {
    const res = await t().request('/events/count', {
      headers: { accept: 'application/jsonl, text/event-stream;q=0.5', 'last-event-id': '3' },
    })
    expect(res.headers.get('content-type')).toBe('application/jsonl')
    const lines = (await res.text()).split('\n')
    expect(lines.pop()).toBe('')
    expect(lines.map((l) => JSON.parse(l))).toEqual([
      { event: 'tick', id: '4', data: { n: 4, left: 1 } },
      { event: 'tick', id: '5', data: { n: 5, left: 0 } },
      { event: 'done', data: { total: 5 } },
    ])
    const sse = await t().request('/events/count', { headers: { accept: 'application/jsonl;q=0.5, */*' } })
    expect(sse.headers.get('content-type')).toBe('text/event-stream')
    await sse.body?.cancel()
  })

  it('answers data or a stream from one handler typed Promise<T | AsyncGenerator<Sse<E>>>, by what it returns', async () => {
    const json = await t().request('/events/either')
    expect(json.headers.get('content-type')).toBe('application/json')
    expect(await json.json()).toEqual([
      { n: 1, left: 1 },
      { n: 2, left: 0 },
    ])
    const events = await (await open(t(), '/events/either', { accept: 'text/event-stream' })).rest()
    expect(events.map((b) => b.raw)).toEqual([
      'event: tick\nid: 1\ndata: {"n":1,"left":1}',
      'event: tick\nid: 2\ndata: {"n":2,"left":0}',
    ])
  })

  it('sends a heartbeat comment while the generator is idle', async () => {
    const blocks = await (await open(t(), '/events/idle/500')).rest()
    const raw = blocks.map((b) => b.raw)
    expect(raw[0], raw.join(' | ')).toBe('data: first')
    expect(raw.at(-1), raw.join(' | ')).toBe('data: last')
    const beats = raw.slice(1, -1)
    // 500 ms idle with a 50 ms heartbeat: about 9; at least 2 on a loaded machine (timers run late there).
    expect(beats.length, raw.join(' | ')).toBeGreaterThanOrEqual(2)
    expect(new Set(beats)).toEqual(new Set([':']))
  })

  it('does not buffer: event 1 arrives while the handler still waits for the test', async () => {
    const key = `k${Math.random().toString(36).slice(2)}`
    const started = Date.now()
    const stream = await open(t(), `/events/held/${key}`)
    // The handler yields `two` only once released (else `timeout` after 10 s): event 1 must come before.
    expect((await stream.event())?.data).toBe('one')
    const firstAfter = Date.now() - started
    const release = await t().request(`/events/release/${key}`, { method: 'POST' })
    expect(await release.json()).toBe(true)
    expect((await stream.event())?.data).toBe('two')
    expect(await stream.next()).toBeUndefined()
    expect(firstAfter).toBeLessThan(5_000)
  })

  it("calls the generator's return() when the client goes away: its finally runs", async () => {
    const key = `k${Math.random().toString(36).slice(2)}`
    const stream = await open(t(), `/events/endless/${key}`)
    expect((await stream.event())?.data).toBe('1')
    expect((await stream.event())?.data).toBe('2')
    expect(await (await t().request(`/events/finished/${key}`)).json()).toBe(false)
    stream.close()
    let finished = false
    for (let i = 0; i < 100 && !finished; i++) {
      await new Promise((r) => setTimeout(r, 30))
      finished = await (await t().request(`/events/finished/${key}`)).json()
    }
    expect(finished).toBe(true)
  })

  it('refuses an id holding a line break: the error is logged, the stream ends there, nothing is injected', async () => {
    const before = logged.length
    const blocks = await (await open(t(), '/events/broken')).rest()
    expect(blocks.map((b) => b.raw)).toEqual(['id: 1\ndata: 1'])
    if (IN_PROCESS.includes(t().name))
      expect(String(logged.slice(before).at(-1))).toContain("A server-sent event's id cannot hold a line break")
  })
})

describeTargets(
  'Server-sent events in development',
  fixtureApp('sse', { sse: { heartbeat: 50 }, checkReturns: true }),
  (t) => {
    it('checks each event against its type: a mismatch is reported in a comment before it', async () => {
      const blocks = await (await open(t(), '/events/bad')).rest()
      expect(blocks.map((b) => b.data)).toEqual(['{"n":1,"left":1}', '{"n":"two","left":-1}'])
      expect(blocks[0]!.comments).toEqual([])
      expect(blocks[1]!.comments).toEqual([
        'routeless: event 2 does not match its type: member /data/n of the event must be number',
      ])
    })
  },
  'check-returns',
)
