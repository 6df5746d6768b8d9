/**
 * The voice WebSocket's AsyncAPI document, generated from its message types (src/voice/voice-messages.ts): valid
 * AsyncAPI 3.0, and DeepL's messages by name and field — the names the Voice API uses (source_media_chunk and
 * end_of_source_media in; transcript updates, target_media_chunk, the end messages and error out).
 */
import { DiagnosticSeverity, Parser } from '@asyncapi/parser'
import { createApp, generateAsyncAPI } from 'routeless'
import { expect, it } from 'vitest'
import { CONTROLLERS } from '../src/app.ts'

it('documents the voice stream in DeepL’s messages, valid AsyncAPI 3.0', { timeout: 120_000 }, async () => {
  const app = await createApp(CONTROLLERS, { logger: { error: () => {}, warn: () => {} } })
  const doc = generateAsyncAPI(app.table, { info: { title: 'DeepL API', version: '3.0.0' } }) as Record<string, any>
  const { diagnostics } = await new Parser().parse(JSON.stringify(doc))
  expect(diagnostics.filter((d) => d.severity === DiagnosticSeverity.Error).map((d) => d.message)).toEqual([])

  const channel = doc.channels.v3VoiceRealtimeConnect
  expect(channel.address).toBe('/v3/voice/realtime/connect')
  expect(channel.bindings.ws.query).toMatchObject({ properties: { token: { type: 'string' } }, required: ['token'] })
  const by = (action: string) =>
    Object.values(doc.operations as Record<string, any>)
      .filter((o) => o.action === action && o.channel.$ref === '#/channels/v3VoiceRealtimeConnect')
      .map((o) => o.messages[0].$ref.split('/').at(-1))
      .sort()
  expect(by('receive')).toEqual(['end_of_source_media', 'source_media_chunk'])
  expect(by('send')).toEqual([
    'end_of_source_transcript',
    'end_of_stream',
    'end_of_target_transcript',
    'error',
    'source_transcript_update',
    'target_media_chunk',
    'target_transcript_update',
  ])
  // Fields, as DeepL names them.
  const schemas = doc.components.schemas
  const inner = (name: string, key: string) => schemas[name].properties[key]
  expect(inner('SourceMediaChunk', 'source_media_chunk')).toMatchObject({
    properties: { data: { type: 'string', pattern: '^[A-Za-z0-9+/]*={0,2}$' } },
    required: ['data'],
  })
  expect(Object.keys(inner('VoiceError', 'error').properties).sort()).toEqual([
    'error_code',
    'error_message',
    'reason_code',
    'request_type',
  ])
  expect(Object.keys(inner('TargetTranscriptUpdate', 'target_transcript_update').properties).sort()).toEqual([
    'concluded',
    'language',
    'tentative',
  ])
  expect(Object.keys(schemas.TranscriptSegment.properties).sort()).toEqual([
    'end_time',
    'language',
    'start_time',
    'text',
  ])
  expect(Object.keys(inner('TargetMediaChunk', 'target_media_chunk').properties).sort()).toEqual([
    'content_type',
    'data',
    'language',
  ])
})
