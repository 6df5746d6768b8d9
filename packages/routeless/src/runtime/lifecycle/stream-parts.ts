/**
 * What a handler returning server-sent events (`AsyncIterable<Sse<T>>`) replies with, beside its code: its events'
 * serializers, the heartbeat, the development check. Registered apart from the pipeline (`runtime/handlers/handlers.ts`'s
 * `LifecycleParts`), so that a Worker whose handlers stream nothing carries none of it, nor `event-stream.ts`.
 * @module
 */
import { dataSchemas } from '../contract/stream-item.ts'
import { serializerFor } from '../contract/serializer-runtime.ts'
import type { Handler } from '../routing/table.ts'
import { DEFAULT_HEARTBEAT, type StreamParts } from './event-stream.ts'
import { stringify } from './json.ts'
import type { PipelineOptions } from './handler-shape.ts'

/** What a stream handler's reply uses: its events' serializers, the heartbeat, the development check. */
export function streamParts(handler: Handler, options: PipelineOptions): StreamParts {
  const stream = handler.types!.stream!
  const where = `${handler.className}.${handler.name} (${handler.file})`
  const data: StreamParts['data'] = {}
  for (const [event, schema] of Object.entries(dataSchemas(stream, options.defs)))
    data[event] = serializerFor(schema, stringify, options.serializers)
  const { checkReturns: report, checkReturn, heartbeat = DEFAULT_HEARTBEAT } = options
  if (!(typeof heartbeat === 'number' && heartbeat >= 0 && heartbeat < 2 ** 31))
    throw new RangeError(`sse.heartbeat must be a number of milliseconds from 0 to 2^31 - 1, got ${heartbeat}`)
  const check = report && checkReturn ? checkReturn(stream.item, options.defs) : undefined
  return {
    data,
    item: serializerFor(stream.item, stringify, options.serializers),
    heartbeat,
    check: check && ((event) => check(event)?.replace(/\bthe returned value\b/g, 'the event')),
    report: report && ((message) => report(`${where}: ${message}`)),
    fail: options.logError && ((error) => options.logError!(`${where}: the event stream ended on an error`, error)),
  }
}
