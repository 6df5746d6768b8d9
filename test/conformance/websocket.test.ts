import { expect, it } from 'vitest'
import { WebSocket } from 'ws'
import { describeTargets, skipWhere } from '../_targets.ts'
import { fixtureApp } from '../_apps.ts'

type Opened = { ws: WebSocket; messages: (string | Buffer)[]; next: () => Promise<string | Buffer> }

function connect(url: string): Promise<Opened> {
  return new Promise((resolve, reject) => {
    const ws = new WebSocket(url)
    const messages: (string | Buffer)[] = []
    const waiters: ((m: string | Buffer) => void)[] = []
    ws.on('message', (data, isBinary) => {
      const m = isBinary ? (data as Buffer) : data.toString()
      const w = waiters.shift()
      if (w) w(m)
      else messages.push(m)
    })
    const next = () => new Promise<string | Buffer>((r) => (messages.length ? r(messages.shift()!) : waiters.push(r)))
    ws.once('open', () => resolve({ ws, messages, next }))
    ws.once('unexpected-response', (_req, res) =>
      reject(Object.assign(new Error(`refused ${res.statusCode}`), { status: res.statusCode })),
    )
    ws.once('error', reject)
  })
}

const closeOf = (ws: WebSocket) =>
  new Promise<{ code: number; reason: string }>((r) =>
    ws.once('close', (code, reason) => r({ code, reason: reason.toString() })),
  )

describeTargets('WebSockets', fixtureApp('features'), (t) => {
  it('exchanges text and binary messages with a WEBSOCKET handler', async (ctx) => {
    if (!t().url) return ctx.skip() // in-process fetch has no sockets; upgrade decisions are tested below
    skipWhere(t(), 'websockets', ctx)
    const { ws, next } = await connect(`${t().url!.replace('http', 'ws')}/chat/room1?token=letmein`)
    expect(await next()).toBe('joined room1')
    ws.send('hello')
    expect(await next()).toBe('echo:hello')
    ws.send(Buffer.from([1, 2, 3]))
    expect([...((await next()) as Buffer)]).toEqual([1, 2, 3])
    const closing = closeOf(ws)
    ws.send('bye')
    expect(await closing).toEqual({ code: 1000, reason: 'bye' })
  })
  it('closes only the failing socket with 1011 when a handler throws', async (ctx) => {
    if (!t().url) return ctx.skip()
    skipWhere(t(), 'websockets', ctx)
    const base = `${t().url!.replace('http', 'ws')}/chat`
    const a = await connect(`${base}/a?token=letmein`)
    const b = await connect(`${base}/b?token=letmein`)
    await a.next()
    await b.next()
    const closing = closeOf(a.ws)
    a.ws.send('boom')
    expect((await closing).code).toBe(1011)
    b.ws.send('still here')
    expect(await b.next()).toBe('echo:still here')
    b.ws.close()
    expect(await (await t().request('/chat')).json()).toBe('chat over HTTP')
  })
  it('refuses with the guard’s HTTP answer, and 404 where no controller takes WebSockets', async (ctx) => {
    if (!t().url) return ctx.skip()
    skipWhere(t(), 'websockets', ctx)
    const base = t().url!.replace('http', 'ws')
    await expect(connect(`${base}/chat/x?token=wrong`)).rejects.toMatchObject({ status: 403 })
    await expect(connect(`${base}/`)).rejects.toMatchObject({ status: 404 })
    await expect(connect(`${base}/chat/x/y/z?token=letmein`)).rejects.toMatchObject({ status: 404 })
  })
  it('parses and checks typed messages before the handler sees them; a bad one closes with 1007 naming the field', async (ctx) => {
    if (!t().url) return ctx.skip()
    skipWhere(t(), 'websockets', ctx)
    const base = `${t().url!.replace('http', 'ws')}/signals`
    const a = await connect(`${base}?name=ann`)
    a.ws.send(JSON.stringify({ kind: 'say', text: 'hi', times: 2 }))
    expect(JSON.parse(String(await a.next()))).toEqual({ kind: 'heard', text: 'hi', by: 'ann' })
    expect(JSON.parse(String(await a.next()))).toEqual({ kind: 'heard', text: 'hi', by: 'ann' })
    const closing = closeOf(a.ws)
    a.ws.send(JSON.stringify({ kind: 'say', text: 'hi', times: 7 }))
    expect(await closing).toEqual({ code: 1007, reason: 'Invalid message: times must be <= 3' })
    for (const [frame, code, reason] of [
      ['{"kind":"say","text":5}', 1007, 'Invalid message: text must be string'],
      ['{"text":"x"}', 1007, "Invalid message: must have required property 'kind'"],
      ['not json', 1007, 'Invalid message: is not JSON'],
      [Buffer.from([1, 2]), 1003, 'Invalid message: must be a JSON text frame'],
    ] as const) {
      const b = await connect(`${base}?name=bob`)
      const closed = closeOf(b.ws)
      b.ws.send(frame)
      expect(await closed).toEqual({ code, reason })
    }
    const c = await connect(`${base}?name=cy`)
    const left = closeOf(c.ws)
    c.ws.send('{"kind":"leave"}')
    expect(JSON.parse(String(await c.next()))).toEqual({ kind: 'bye' })
    expect(await left).toEqual({ code: 1000, reason: 'left' })
    // The keyword arguments are checked as any handler's: the upgrade is refused.
    await expect(connect(base)).rejects.toMatchObject({ status: 400 })
  })
  it('gives a message that is not of its type to the handlers’ invalid, which may answer it', async (ctx) => {
    if (!t().url) return ctx.skip()
    skipWhere(t(), 'websockets', ctx)
    const s = await connect(`${t().url!.replace('http', 'ws')}/signals/lenient`)
    s.ws.send('{"kind":"say","text":""}')
    expect(JSON.parse(String(await s.next()))).toEqual({
      kind: 'refused',
      why: '/text must NOT have fewer than 1 characters',
    })
    s.ws.send('{"kind":"say","text":"still open"}')
    expect(JSON.parse(String(await s.next()))).toEqual({ kind: 'heard', text: 'still open', by: 'lenient' })
    s.ws.close()
  })
})

it('decides upgrades in-process: accepted with handlers, or the refusing Response', async () => {
  const app = await fixtureApp('features')()
  const ok = await app.upgrade(
    new Request('http://localhost/chat/r?token=letmein', { headers: { upgrade: 'websocket' } }),
  )
  expect(ok.accepted).toBe(true)
  const denied = await app.upgrade(new Request('http://localhost/chat/r'))
  expect(denied.accepted).toBe(false)
  if (!denied.accepted) {
    expect(denied.response.status).toBe(403)
    expect((await denied.response.json()).message).toBe('Bad token')
  }
  const token = await app.request('/chat', { method: 'WEBSOCKET' as string }).catch(() => undefined)
  if (token) expect(token.status).toBe(501)
})

it('refuses upgrades from origins outside the CORS allow-list (no preflight protects WebSockets)', async () => {
  const app = await fixtureApp('features', {
    cors: {
      origins: (o) => {
        if (o === 'https://throws.example') throw new Error('x')
        return o === 'https://ok.example'
      },
    },
  })()
  const from = (origin: string) =>
    app.upgrade(new Request('http://localhost/chat/r?token=letmein', { headers: { upgrade: 'websocket', origin } }))
  expect((await from('https://ok.example')).accepted).toBe(true)
  for (const origin of ['https://evil.example', 'https://throws.example']) {
    const d = await from(origin)
    expect(d.accepted).toBe(false)
    if (!d.accepted) expect(d.response.status).toBe(403)
  }
})
