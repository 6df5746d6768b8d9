/**
 * The schemas of a streamed answer's items (`HandlerTypes.stream`), as the lifecycle and the documents use them: the
 * whole event (a line of `application/jsonl`), each event's `data` by its name (what a `data:` field of
 * `text/event-stream` carries), and the item as OpenAPI 3.2 documents a server-sent event (`itemSchema`, its `data` a
 * string holding JSON: §4.14.4). Reads schemas only: the analysis that writes them is `stream-types.ts`.
 * @module
 */
import type { HandlerTypes, JsonSchema, StreamDecl } from './manifest.ts'
import { bodySchemas } from './responses.ts'

/** One kind of event a stream sends: its name when the type fixes one (`Sse<Done, 'done'>`), and its data's schema. */
export interface EventKind {
  /** `undefined`: an event whose name the type does not fix (`Sse<Progress>`: `message`, or any string). */
  event: string | undefined
  data: JsonSchema
}

/** The kinds of event of `stream`'s items: one per member of the item's union. */
export function eventKinds(stream: StreamDecl, defs: Record<string, JsonSchema>): EventKind[] {
  const members: JsonSchema[] = stream.item.anyOf ?? [stream.item]
  const out: EventKind[] = []
  for (const raw of members) {
    const member = deref(raw, defs)
    const event = member.properties?.event
    const name = event && (typeof event.const === 'string' ? event.const : undefined)
    out.push({ event: name, data: member.properties?.data ?? {} })
  }
  return out
}

/**
 * The data schema to write each event with, by event name (`''`: the events whose name the type does not fix; their
 * data schemas joined into one `anyOf` when there are several).
 */
export function dataSchemas(stream: StreamDecl, defs: Record<string, JsonSchema>): Record<string, JsonSchema> {
  const out: Record<string, JsonSchema> = {}
  const unnamed: JsonSchema[] = []
  for (const kind of eventKinds(stream, defs)) {
    if (kind.event === undefined) unnamed.push(kind.data)
    else out[kind.event] = kind.event in out ? { anyOf: [out[kind.event]!, kind.data] } : kind.data
  }
  if (unnamed.length) out[''] = unnamed.length === 1 ? unnamed[0]! : { anyOf: unnamed }
  return out
}

/**
 * Every schema a handler's answers are written with by a compiled serializer: its return type and declared answers'
 * bodies (`responses.ts`), its stream's items.
 */
export function serializedSchemas(types: HandlerTypes, defs: Record<string, JsonSchema>): JsonSchema[] {
  const out = bodySchemas(types)
  if (types.stream) out.push(types.stream.item, ...Object.values(dataSchemas(types.stream, defs)))
  return out
}

/**
 * One server-sent event as OpenAPI 3.2 documents it (`content['text/event-stream'].itemSchema`): `data` is a string,
 * the JSON of the item's data type (`contentMediaType` + `contentSchema`), or plain text where that type is a string;
 * `event` a constant where the type fixes the name; `id` and `retry` as the wire carries them. A union of named events
 * is a `oneOf`. For `application/jsonl`, the item schema is `stream.item` itself (each line is the event as JSON).
 */
export function eventItemSchema(stream: StreamDecl, defs: Record<string, JsonSchema>): JsonSchema {
  const kinds = eventKinds(stream, defs)
  const one = ({ event, data }: EventKind): JsonSchema => {
    const text = deref(data, defs).type === 'string'
    return {
      type: 'object',
      properties: {
        data: text ? { type: 'string' } : { type: 'string', contentMediaType: 'application/json', contentSchema: data },
        event: event === undefined ? { type: 'string' } : { const: event },
        id: { type: 'string' },
        retry: { type: 'integer', minimum: 0 },
      },
      required: event === undefined ? ['data'] : ['data', 'event'],
    }
  }
  return kinds.length === 1 ? one(kinds[0]!) : { oneOf: kinds.map(one) }
}

function deref(schema: JsonSchema, defs: Record<string, JsonSchema>): JsonSchema {
  for (let i = 0; i < 8 && typeof schema.$ref === 'string'; i++)
    schema = defs[schema.$ref.slice('#/$defs/'.length)] ?? {}
  return schema
}
