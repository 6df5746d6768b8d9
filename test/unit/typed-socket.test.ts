import { describe, expect, it } from 'vitest'
import { createApp, type Socket, type SocketHandlers } from 'routeless'
import { fixture, fixtureApp } from '../_apps.ts'

/** A socket that records what it is sent and how it is closed. */
function fakeSocket() {
  const sent: (string | Uint8Array)[] = []
  let closed: [number | undefined, string | undefined] | undefined
  const socket: Socket = {
    send: (data) => void sent.push(data),
    close: (code, reason) => void (closed = [code, reason]),
    remoteAddress: undefined,
  }
  return { socket, sent, closed: () => closed }
}

async function accept(path: string, options = {}): Promise<SocketHandlers> {
  const app = await fixtureApp('features', options)()
  const decision = await app.upgrade(new Request(`http://localhost${path}`, { headers: { upgrade: 'websocket' } }))
  if (!decision.accepted) throw new Error(`refused ${decision.response.status}`)
  return decision.handlers
}

describe('typed WebSocket messages', () => {
  it('reads In and Out of SocketHandlers<In, Out> into the manifest (raw frames declare none)', async () => {
    const app = await fixtureApp('features')()
    const handlers = [...app.table.handlers()]
    const signals = handlers.find((h) => h.className === 'Default' && h.file.endsWith('signals.ts'))!
    const receives = signals.types?.socket?.receives
    expect(receives?.anyOf).toHaveLength(2)
    expect(receives?.anyOf).toEqual(expect.arrayContaining([{ $ref: '#/$defs/Say' }, { $ref: '#/$defs/Leave' }]))
    expect(signals.types?.socket?.sends).toMatchObject({ anyOf: expect.any(Array) })
    expect(app.table.defs.Say).toMatchObject({
      properties: { times: { minimum: 1, maximum: 3 } },
      required: ['kind', 'text'],
    })
    const chat = handlers.find((h) => h.method === 'WEBSOCKET' && h.file.endsWith('chat.ts'))!
    expect(chat.types?.socket).toBeUndefined()
  })

  it('parses and checks each text frame before message, and writes what it sends as JSON', async () => {
    const handlers = await accept('/signals?name=ann')
    const { socket, sent, closed } = fakeSocket()
    await handlers.message!(socket, '{"kind":"say","text":"hi"}')
    expect(sent).toEqual(['{"kind":"heard","text":"hi","by":"ann"}'])
    await handlers.message!(socket, '{"kind":"say","text":"hi","times":0}')
    expect(closed()).toEqual([1007, 'Invalid message: times must be >= 1'])
    expect(sent).toHaveLength(1)
  })

  it('cuts a close reason to the 123 bytes a close frame carries', async () => {
    const handlers = await accept('/signals?name=ann')
    const { socket, closed } = fakeSocket()
    const field = 'é'.repeat(100)
    await handlers.message!(socket, JSON.stringify({ kind: 'say', text: 'x', [field]: 1, times: 'x' }))
    const [code, reason] = closed()!
    expect(code).toBe(1007)
    expect(new TextEncoder().encode(reason).length).toBeLessThanOrEqual(123)
  })

  it('reports in development a message sent that its type does not describe (checkReturns)', async () => {
    const warned: string[] = []
    const handlers = await accept('/signals/lenient', {
      checkReturns: true,
      logger: { error: () => {}, warn: (m: string) => warned.push(m) },
    })
    const { socket, sent } = fakeSocket()
    await handlers.message!(socket, '{"kind":"say","text":"cheat"}')
    expect(sent).toEqual(['{"kind":"heard"}'])
    expect(warned).toEqual([expect.stringMatching(/^Lenient\.WEBSOCKET \(.*signals\.ts\): a message sent: /)])
    await handlers.message!(socket, '{"kind":"say","text":"fine"}')
    expect(warned).toHaveLength(1)
  })

  it('leaves raw frames raw where nothing is declared', async () => {
    const handlers = await accept('/chat/r?token=letmein')
    const { socket, sent } = fakeSocket()
    await handlers.message!(socket, 'not json')
    expect(sent).toEqual(['echo:not json'])
  })

  it('serves the declared messages with types off only as raw frames', async () => {
    // Without the types, nothing is declared: the handler gets the frame as it came (as parameters get strings).
    const app = await createApp([fixture('features')], { types: 'off', logger: { error: () => {} } })
    const signals = [...app.table.handlers()].find((h) => h.file.endsWith('signals.ts'))!
    expect(signals.types).toBeUndefined()
  })
})
