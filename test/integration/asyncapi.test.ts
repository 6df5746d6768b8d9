/** AsyncAPI 3.0 from the WebSocket handlers' types, validated by the AsyncAPI parser (its schema and its rules). */
import { fileURLToPath } from 'node:url'
import { Parser, DiagnosticSeverity } from '@asyncapi/parser'
import { describe, expect, it } from 'vitest'
import type { Application } from 'routeless'
import { generateAsyncAPI } from '../../packages/routeless/src/runtime/documents/asyncapi.ts'
import { fixture, fixtureApp } from '../_apps.ts'
import { run } from '../package/_project.ts'

const BIN = fileURLToPath(new URL('../../packages/routeless/bin/routeless.js', import.meta.url))

/** The parser's errors (and warnings: a document it only warns about is still a document we should not write). */
async function problems(document: Record<string, unknown>): Promise<string[]> {
  const { diagnostics } = await new Parser().parse(JSON.stringify(document))
  return diagnostics
    .filter((d) => d.severity === DiagnosticSeverity.Error || d.severity === DiagnosticSeverity.Warning)
    .map((d) => `${d.code} at ${d.path.join('.')}: ${d.message}`)
}

let app: Application

describe('the AsyncAPI document', { timeout: 60_000 }, () => {
  it('has a channel per WebSocket path, a message and an operation per member of what it receives and sends', async () => {
    app = await fixtureApp('features')()
    const doc = generateAsyncAPI(app.table, {
      info: { title: 'Features', version: '1.0.0' },
      servers: [{ url: 'https://api.example.com/v1' }],
    }) as Record<string, any>
    expect(await problems(doc)).toEqual([])
    // The validator does catch a wrong document: an action AsyncAPI 3.0 does not have, a message that is not there.
    const wrong = structuredClone(doc)
    wrong.operations.receiveSignalsSay.action = 'publish'
    wrong.operations.sendSignalsHeard.messages = [{ $ref: '#/channels/signals/messages/Nothing' }]
    expect((await problems(wrong)).length).toBeGreaterThanOrEqual(2)
    expect(doc.asyncapi).toBe('3.0.0')
    expect(doc.servers).toEqual({ default: { host: 'api.example.com', protocol: 'wss', pathname: '/v1' } })
    const signals = doc.channels.signals
    expect(signals.address).toBe('/signals')
    expect(signals.bindings.ws).toEqual({
      method: 'GET',
      query: {
        type: 'object',
        properties: { name: { type: 'string' } },
        required: ['name'],
        additionalProperties: false,
      },
      bindingVersion: '0.1.0',
    })
    // Named as the wire tells them apart: by their tag (`kind`).
    expect(Object.keys(signals.messages).sort()).toEqual(['bye', 'heard', 'leave', 'refused', 'say'])
    expect(signals.messages.say).toEqual({ name: 'say', title: 'Say', payload: { $ref: '#/components/schemas/Say' } })
    expect(doc.components.schemas.Say).toMatchObject({ properties: { times: { minimum: 1, maximum: 3 } } })
    expect(signals.messages.heard.payload).toMatchObject({ properties: { kind: { const: 'heard' } } })
    expect(doc.operations.receiveSignalsSay).toEqual({
      action: 'receive',
      channel: { $ref: '#/channels/signals' },
      messages: [{ $ref: '#/channels/signals/messages/say' }],
    })
    expect(doc.operations.sendSignalsHeard.action).toBe('send')
    // A raw handler: its frames, at each path it answers (an optional positional: with and without it).
    expect(doc.channels.chat.messages).toEqual({ frame: expect.objectContaining({ payload: {} }) })
    expect(doc.channels.chatRoom).toMatchObject({ address: '/chat/{room}', parameters: { room: {} } })
    expect(Object.keys(doc.operations)).toContain('sendChatRoomFrame')
  })

  it('documents an event stream as a channel the application sends its items on, over HTTP', async () => {
    app ??= await fixtureApp('features')()
    const handler = [...app.table.handlers()].find((h) => h.method === 'GET' && h.path === '/chat')!
    const types = handler.types!
    handler.types = { ...types, stream: { mediaType: 'text/event-stream', item: { $ref: '#/$defs/Say' } } }
    try {
      const doc = generateAsyncAPI(app.table) as Record<string, any>
      expect(await problems(doc)).toEqual([])
      expect(doc.channels.chatEvents.messages.say).toMatchObject({ contentType: 'text/event-stream' })
      expect(doc.operations.sendChatEventsSay).toMatchObject({
        action: 'send',
        bindings: { http: { method: 'GET', bindingVersion: '0.3.0' } },
      })
    } finally {
      handler.types = types
    }
  })

  it('is served at /docs/asyncapi.json beside the OpenAPI document, and printed by routeless asyncapi', async () => {
    const served = await fixtureApp('features', { docs: true })()
    const res = await served.request('/docs/asyncapi.json')
    expect(res.status).toBe(200)
    expect(res.headers.get('content-type')).toMatch(/application\/json/)
    expect(await res.json()).toEqual(
      JSON.parse(JSON.stringify(generateAsyncAPI(served.table, { servers: [{ url: 'http://localhost' }] }))),
    )
    const printed = await run(process.execPath, [BIN, 'asyncapi', `--prefix=${fixture('features')}`, '--title=F'], {
      cwd: fixture('features'),
    })
    expect(printed.code, printed.stderr).toBe(0)
    const doc = JSON.parse(printed.stdout)
    expect(doc.info).toEqual({ title: 'F', version: '0.0.0' })
    expect(Object.keys(doc.channels)).toEqual(expect.arrayContaining(['signals', 'signalsLenient', 'chat']))
  })
})
