/**
 * Internal, loaded only with `analyze.ts`: a handler whose return type is an async iterable of server-sent events
 * (`AsyncIterable<Sse<Progress>>`, `AsyncGenerator<Sse<Progress, 'progress'> | Sse<Done, 'done'>>`, either in a
 * promise) answers a stream: its `StreamDecl`, the schema of one event (`{data, event?, id?, retry?}`, a union's
 * members as `anyOf`). An iterable of anything else keeps its meaning (a JSON array streamed, bytes).
 * @module
 */
import type { MethodInfo, TypeReader } from './type-reader.ts'
import { Kind } from './type-reader.ts'
import type { StreamDecl } from './manifest.ts'
import type { SchemaWriter } from './type-schema.ts'

/** The iterables a handler may return events in: their first type argument is the item. */
const ITERABLES = new Set(['AsyncIterable', 'AsyncIterableIterator', 'AsyncGenerator'])

/** The event type routeless exports (`lifecycle/event-stream.ts`), recognised by name. */
const EVENT = 'Sse'

/** The stream `method` answers, when its return type is an async iterable of `Sse` events. */
export function streamOf(reader: TypeReader, writer: SchemaWriter, method: MethodInfo): StreamDecl | undefined {
  const returned = method.returns()
  if (!returned) return undefined
  const types = reader.hasProperty(returned, 'then') ? reader.awaited(returned) : [returned]
  if (types.length !== 1) return undefined
  const iterable = types[0]!
  if (!(reader.kind(iterable) & Kind.Object) || !ITERABLES.has(reader.symbolName(iterable) ?? '')) return undefined
  const [item] = reader.typeArguments(iterable)
  if (!item) return undefined
  const events = reader.kind(item) & Kind.Union ? reader.members(item) : [item]
  if (!events.every((t) => reader.symbolName(t) === EVENT)) return undefined
  return { mediaType: 'text/event-stream', item: writer.schemaOfUnion(events) }
}
