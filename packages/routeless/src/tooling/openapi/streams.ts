/**
 * A streamed answer's media types. OpenAPI 3.1 can only say that the body is text; 3.2 describes each item with
 * `itemSchema`: for `text/event-stream` one event (`data` a string, its JSON's schema in `contentSchema`, §4.14.4),
 * for `application/jsonl` one line.
 * @module
 */
import type { JsonSchema, StreamDecl } from '../../binding/manifest.ts'
import { linked } from './schemas.ts'

const SSE = 'text/event-stream'
const JSONL = 'application/jsonl'

/** The `content` of a streamed answer (an event stream is also sent as JSON lines to a client asking for them). */
export function streamContent(stream: StreamDecl, version: '3.1' | '3.2'): Record<string, unknown> {
  const item = linked(stream.item)
  if (stream.mediaType !== SSE) return { [JSONL]: version === '3.2' ? { itemSchema: item } : text('JSON lines') }
  const events = eventsOf(item)
  if (version === '3.1')
    return { [SSE]: text('Server-sent events'), [JSONL]: text("JSON lines (the events' data, one a line)") }
  const datas = events.map((e) => e.data)
  return {
    [SSE]: { itemSchema: events.length === 1 ? sseItem(events[0]!) : { oneOf: events.map(sseItem) } },
    [JSONL]: { itemSchema: datas.length === 1 ? datas[0] : { anyOf: datas } },
  }
}

function text(description: string): Record<string, unknown> {
  return { schema: { type: 'string', description } }
}

interface EventShape {
  /** The schema of `event` when the type names it (a literal), else undefined. */
  event: JsonSchema | undefined
  data: JsonSchema
}

/**
 * The events `item` describes: a union of `{ event: 'x'; data: D }` members, one such object, or the data alone
 * (events without a name).
 */
function eventsOf(item: JsonSchema): EventShape[] {
  const members = item.oneOf ?? item.anyOf
  if (Array.isArray(members) && members.length && members.every(isEvent))
    return members.map((m: JsonSchema) => ({ event: m.properties.event, data: m.properties.data }))
  if (isEvent(item)) return [{ event: item.properties.event, data: item.properties.data }]
  return [{ event: undefined, data: item }]
}

function isEvent(schema: JsonSchema): boolean {
  return schema?.type === 'object' && typeof schema.properties?.data === 'object'
}

/** One server-sent event: `data` is the text of a line, JSON of its schema unless it is a string itself. */
function sseItem(e: EventShape): JsonSchema {
  const plain = e.data.type === 'string'
  return {
    type: 'object',
    required: e.event ? ['event', 'data'] : ['data'],
    properties: {
      ...(e.event ? { event: e.event } : {}),
      id: { type: 'string' },
      retry: { type: 'integer', minimum: 0 },
      data: plain ? e.data : { type: 'string', contentMediaType: 'application/json', contentSchema: e.data },
    },
  }
}
