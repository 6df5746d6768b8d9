/**
 * routeless/worker: what a Worker bundle (`routeless build --target=worker`) runs — `createWorkerApp`, which the
 * entry it writes calls, and everything of `routeless` that a controller or a config may import and a Worker can run
 * (a bundle's `import … from 'routeless'` is read from here). Nothing that reads files or compiles code: no
 * discovery, no TypeScript loader, no manifest reader, no code generator, no `node:*` module. Built as one file, so
 * that a bundler takes only what is used.
 * @module
 */
export { createWorkerApp, type WorkerParts } from './runtime/app/worker-app.ts'
// The helpers generated validators call (`rt.equal`, `rt.ucs2length`), passed by an entry whose validators do.
export { equal, ucs2length } from './runtime/handlers/generated-validators.ts'
// The parts of the table's assembly an entry passes when its tree needs them (`runtime/routing/table-parts.ts`).
export { readSignature } from './runtime/routing/arity.ts'
export { surveyTable } from './runtime/routing/survey.ts'
export { dateReviver } from './runtime/contract/dates.ts'
// The wrappers and the 404's hint an entry passes when its config asks for them (`runtime/app/core-services.ts`).
export { accessLog } from './runtime/wrappers/access-log.ts'
export { cors, originCheck } from './runtime/wrappers/cors.ts'
export { notFoundHint } from './runtime/routing/not-found-hint.ts'
// WebSockets through `app.fetch` (`WebSocketPair`), passed by an entry whose tree has a WEBSOCKET handler.
export { hostSockets } from './runtime/lifecycle/host-sockets.ts'
// What only some handlers use, passed by an entry whose handlers do (`runtime/handlers/handlers.ts`'s `LifecycleParts`): the
// writers of declared answers (`Created<T> | Conflict<E>`), `rt.nest` (typed keywords holding objects).
export { statusSerializers } from './runtime/contract/responses.ts'
export { nest } from './runtime/contract/typed-binder.ts'
// And event streams: their reply (`rt.streamReply`, `rt.isAsyncIterable`, `rt.lastEventId`) and its parts.
export { isAsyncIterable, lastEventId, streamReply } from './runtime/lifecycle/event-stream.ts'
export { streamParts } from './runtime/lifecycle/stream-parts.ts'
// The format checks generated validators call, under the names the entry imports them by (`formatExport`).
export {
  byte as format_byte,
  date as format_date,
  dateTime as format_date_time,
  double as format_double,
  float as format_float,
  int32 as format_int32,
  int64 as format_int64,
  isoDateTime as format_iso_date_time,
  isoTime as format_iso_time,
  regex as format_regex,
  time as format_time,
  uri as format_uri,
} from './runtime/contract/formats.ts'
export type { CompiledModule } from './runtime/handlers/app-module.ts'
export type { ControllerModule } from './runtime/app/assemble.ts'
export { HTTP_METHODS } from './runtime/base/handler-names.ts'
export { RouteTable } from './runtime/routing/table.ts'
export type { Endpoint, Handler, RouteRow } from './runtime/routing/table.ts'
export type { RoutelessConfig } from './cli/config-options.ts'
export * from './public.ts'
