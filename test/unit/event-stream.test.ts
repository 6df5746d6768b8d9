import { fileURLToPath } from 'node:url'
import { describe, expect, it } from 'vitest'
import { analyze, loadTypeScript } from '../../packages/routeless/src/compiler/analysis/analyze.ts'
import { dataSchemas, eventItemSchema } from '../../packages/routeless/src/runtime/contract/stream-item.ts'
import type { Call } from '../../packages/routeless/src/runtime/lifecycle/call.ts'
import {
  prefersJsonl,
  streamReply,
  type StreamParts,
} from '../../packages/routeless/src/runtime/lifecycle/event-stream.ts'
import { ResponseDraft, type Reply } from '../../packages/routeless/src/runtime/lifecycle/response.ts'

const ROOT = fileURLToPath(new URL('../..', import.meta.url))

describe('the stream a handler type declares', { timeout: 60_000 }, async () => {
  const ts = await loadTypeScript(ROOT)
  const file = fileURLToPath(new URL('../fixtures/sse/events.ts', import.meta.url))
  const manifest = analyze(ts!, [{ file, module: 'events' }], ROOT)
  const types = (cls: string, method = 'GET') => manifest.handlers[`test/fixtures/sse/events.ts#${cls}.${method}`]!

  it('reads AsyncGenerator<Sse<A, "a"> | Sse<B, "b">> as a text/event-stream of named events', () => {
    const { stream, returns } = types('Count')
    expect(returns).toBeNull()
    expect(stream?.mediaType).toBe('text/event-stream')
    expect(dataSchemas(stream!, manifest.$defs)).toEqual({
      tick: { $ref: '#/$defs/Tick' },
      done: { $ref: '#/$defs/Done' },
    })
    expect(eventItemSchema(stream!, manifest.$defs)).toEqual({
      oneOf: expect.arrayContaining([
        {
          type: 'object',
          properties: {
            data: { type: 'string', contentMediaType: 'application/json', contentSchema: { $ref: '#/$defs/Tick' } },
            event: { const: 'tick' },
            id: { type: 'string' },
            retry: { type: 'integer', minimum: 0 },
          },
          required: ['data', 'event'],
        },
      ]),
    })
  })

  it('documents text data as a plain string, an event without a fixed name as any string', () => {
    const item = eventItemSchema(types('Lines').stream!, manifest.$defs)
    expect(item.properties.data).toEqual({ type: 'string' })
    expect(item.properties.event).toEqual({ type: 'string' })
    expect(item.required).toEqual(['data'])
  })

  it('leaves other handlers without a stream', () => {
    expect(types('Release', 'POST').stream).toBeUndefined()
    expect(types('Finished').stream).toBeUndefined()
  })
})

describe('prefersJsonl', () => {
  it.each([
    [null, false],
    ['text/event-stream', false],
    ['*/*', false],
    ['application/jsonl', true],
    ['application/x-ndjson', true],
    ['application/jsonl, text/event-stream', false],
    ['application/jsonl, text/event-stream;q=0.9', true],
    ['application/jsonl;q=0.5, */*', false],
    ['application/jsonl;q=0', false],
  ])('%s → %s', (accept, jsonl) => expect(prefersJsonl(accept)).toBe(jsonl))
})

describe('the event text', () => {
  const parts: StreamParts = {
    data: {},
    item: undefined,
    heartbeat: 0,
    check: undefined,
    report: undefined,
    fail: undefined,
  }
  const body = async (...events: unknown[]) => {
    const failures: unknown[] = []
    const call = {
      incoming: { header: () => null },
      response: new ResponseDraft(),
      env: {},
      kwargs: {},
    } as unknown as Call
    const reply = streamReply(
      (async function* () {
        yield* events
      })(),
      call,
      { ...parts, fail: (e) => failures.push(e) },
    ) as Reply
    const text = await new Response(reply.body as ReadableStream).text()
    return { text, failures: failures.map(String) }
  }

  it('writes event, id, retry and one data line per line of text', async () => {
    expect((await body({ event: 'a', id: '7', retry: 10, data: 'x\ry\n\nz' })).text).toBe(
      'event: a\nid: 7\nretry: 10\ndata: x\ndata: y\ndata: \ndata: z\n\n',
    )
    expect((await body({ data: { a: [1, 'b'] } })).text).toBe('data: {"a":[1,"b"]}\n\n')
  })

  it('refuses line breaks in an event name or id, a NUL in an id, a retry that is not a whole number', async () => {
    for (const [bad, message] of [
      [{ data: 1, event: 'a\rb' }, "event's event cannot hold a line break"],
      [{ data: 1, id: 'a\nb' }, "event's id cannot hold a line break"],
      [{ data: 1, id: 'a\0b' }, 'id cannot hold a NUL character'],
      [{ data: 1, retry: 1.5 }, 'retry must be a non-negative integer'],
      [{ data: 1, retry: -1 }, 'retry must be a non-negative integer'],
      ['text', 'must be an object'],
    ] as const) {
      const { text, failures } = await body({ data: 0 }, bad, { data: 2 })
      expect(text).toBe('data: 0\n\n')
      expect(failures).toHaveLength(1)
      expect(failures[0]).toContain(message)
    }
  })
})
