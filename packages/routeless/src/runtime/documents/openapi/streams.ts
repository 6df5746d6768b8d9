/**
 * A streamed answer's media types. OpenAPI 3.1 can only say that the body is text; 3.2 describes each item with
 * `itemSchema`: for `text/event-stream` one event (`data` a string, its JSON's schema in `contentSchema`, §4.14.4;
 * `event` a constant where the type fixes the name), for `application/jsonl` one line (the event as JSON). An event
 * stream is also sent as JSON lines to a client that asks for them.
 * @module
 */
import type { JsonSchema, StreamDecl } from '../../contract/manifest.ts'
import { linked } from './schemas.ts'

const SSE = 'text/event-stream'
const JSONL = 'application/jsonl'

/** The `content` of a streamed answer. */
export function streamContent(
  stream: StreamDecl,
  version: '3.1' | '3.2',
  defs: Record<string, JsonSchema>,
): Record<string, unknown> {
  const lines = version === '3.2' ? { itemSchema: linked(stream.item) } : text('JSON lines, one item a line')
  if (stream.mediaType !== SSE) return { [JSONL]: lines }
  if (version !== '3.2') return { [SSE]: text('Server-sent events'), [JSONL]: lines }
  const kinds = eventKinds(stream.item, defs)
  return {
    [SSE]: {
      itemSchema: linked(kinds.length === 1 ? sseItem(kinds[0]!, defs) : { oneOf: kinds.map((k) => sseItem(k, defs)) }),
    },
    [JSONL]: lines,
  }
}

function text(description: string): Record<string, unknown> {
  return { schema: { type: 'string', description } }
}

/** One kind of event: its name when the type fixes one (`const`), and its data's schema. */
interface EventKind {
  event: string | undefined
  data: JsonSchema
}

/** The kinds of event of an item: one per member of its union (`{ event: 'x'; data: D }`, a named type of that shape). */
function eventKinds(item: JsonSchema, defs: Record<string, JsonSchema>): EventKind[] {
  return ((item.anyOf ?? item.oneOf ?? [item]) as JsonSchema[]).map((raw) => {
    const member = deref(raw, defs)
    const event = member.properties?.event
    return {
      event: typeof event?.const === 'string' ? event.const : undefined,
      data: member.properties?.data ?? {},
    }
  })
}

/** One server-sent event: `data` is the text of its lines, JSON of the data's type unless that is a string. */
function sseItem({ event, data }: EventKind, defs: Record<string, JsonSchema>): JsonSchema {
  const plain = deref(data, defs).type === 'string'
  return {
    type: 'object',
    required: event === undefined ? ['data'] : ['data', 'event'],
    properties: {
      data: plain ? { type: 'string' } : { type: 'string', contentMediaType: 'application/json', contentSchema: data },
      event: event === undefined ? { type: 'string' } : { const: event },
      id: { type: 'string' },
      retry: { type: 'integer', minimum: 0 },
    },
  }
}

function deref(schema: JsonSchema, defs: Record<string, JsonSchema>): JsonSchema {
  for (let i = 0; i < 8 && typeof schema?.$ref === 'string'; i++)
    schema = defs[schema.$ref.replace(/^#\/\$defs\//, '')] ?? {}
  return schema ?? {}
}
