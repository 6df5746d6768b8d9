/**
 * Internal, loaded only with `analyze.ts`: a handler whose return type is an async iterable of server-sent events
 * (`AsyncIterable<Sse<Progress>>`, `AsyncGenerator<Sse<Progress, 'progress'> | Sse<Done, 'done'>>`, either in a
 * promise) answers a stream: its `StreamDecl`, the schema of one event (`{data, event?, id?, retry?}`, a union's
 * members as `anyOf`). An iterable of anything else keeps its meaning (a JSON array streamed, bytes). A union of such
 * a stream with data answers either (the handler decides, by the request's `Accept`).
 * @module
 */
import type { MethodInfo, TypeHandle, TypeReader } from './type-reader.ts'
import { Kind } from './type-reader.ts'
import type { StreamDecl } from '../../runtime/contract/manifest.ts'
import type { SchemaWriter } from './type-schema.ts'

/** The iterables a handler may return events in: their first type argument is the item. */
const ITERABLES = new Set(['AsyncIterable', 'AsyncIterableIterator', 'AsyncGenerator'])

/** The event type routeless exports (`runtime/lifecycle/event-stream.ts`), recognised by name. */
const EVENT = 'Sse'

/**
 * The stream `method` answers, when its return type is an async iterable of `Sse` events, or a union of one with data
 * (`Promise<Records | AsyncGenerator<Sse<Change>>>`: the handler answers either, by the request); `rest` holds the
 * union's other members (empty when the stream is all it returns), whose answers `analyze.ts` reads as for any type.
 */
export function streamOf(
  reader: TypeReader,
  writer: SchemaWriter,
  method: MethodInfo,
): { stream: StreamDecl; rest: TypeHandle[] } | undefined {
  const returned = method.returns()
  if (!returned) return undefined
  const awaited = reader.hasProperty(returned, 'then') ? reader.awaited(returned) : [returned]
  const types = awaited.flatMap((t) => (reader.kind(t) & Kind.Union ? reader.members(t) : [t]))
  const streams = types.filter((t) => eventsOf(reader, t) !== undefined)
  if (streams.length !== 1) return undefined
  const item = writer.schemaOfUnion(eventsOf(reader, streams[0]!)!)
  return { stream: { mediaType: 'text/event-stream', item }, rest: types.filter((t) => t !== streams[0]) }
}

/** The event types of an async iterable of `Sse` events (each member of its item's union), or undefined. */
function eventsOf(reader: TypeReader, type: TypeHandle): TypeHandle[] | undefined {
  if (!(reader.kind(type) & Kind.Object) || !ITERABLES.has(reader.symbolName(type) ?? '')) return undefined
  const [item] = reader.typeArguments(type)
  if (!item) return undefined
  const events = reader.kind(item) & Kind.Union ? reader.members(item) : [item]
  return events.every((t) => reader.symbolName(t) === EVENT) ? events : undefined
}
