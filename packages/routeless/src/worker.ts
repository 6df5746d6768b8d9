/**
 * routeless/worker: what a Worker bundle (`routeless build --target=worker`) runs — `createWorkerApp`, which the
 * entry it writes calls, and everything of `routeless` that a controller or a config may import and a Worker can run
 * (a bundle's `import … from 'routeless'` is read from here). Nothing that reads files or compiles code: no
 * discovery, no TypeScript loader, no manifest reader, no code generator, no `node:*` module. Built as one file, so
 * that a bundler takes only what is used.
 * @module
 */
export { createWorkerApp, type WorkerParts } from './app/worker-app.ts'
// The helpers generated validators call (`rt.equal`, `rt.ucs2length`), passed by an entry whose validators do.
export { equal, ucs2length } from './compile/runtime.ts'
// The parts of the table's compilation an entry passes when its tree needs them (`routing/table-parts.ts`).
export { readSignature } from './routing/arity.ts'
export { surveyTable } from './routing/survey.ts'
export { dateReviver } from './binding/dates.ts'
// The wrappers and the 404's hint an entry passes when its config asks for them (`app/core-services.ts`).
export { accessLog } from './wrappers/access-log.ts'
export { cors, originCheck } from './wrappers/cors.ts'
export { notFoundHint } from './tooling/explain.ts'
// WebSockets through `app.fetch` (`WebSocketPair`), passed by an entry whose tree has a WEBSOCKET handler.
export { hostSockets } from './lifecycle/host-sockets.ts'
// What only some handlers use, passed by an entry whose handlers do (`compile/handlers.ts`'s `LifecycleParts`): the
// writers of declared answers (`Created<T> | Conflict<E>`), `rt.nest` (typed keywords holding objects).
export { statusSerializers } from './binding/responses.ts'
export { nest } from './binding/typed-binder.ts'
// And event streams: their reply (`rt.streamReply`, `rt.isAsyncIterable`, `rt.lastEventId`) and its parts.
export { isAsyncIterable, lastEventId, streamReply } from './lifecycle/event-stream.ts'
export { streamParts } from './lifecycle/stream-parts.ts'
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
} from './binding/formats.ts'
export type { CompiledModule } from './compile/app-module.ts'
export type { ControllerModule } from './app/assemble.ts'
export { Application, DEFAULT_BODY_LIMIT } from './app/application.ts'
export type { AppOptions, AppServices, ControllerSource, ModuleMap } from './app/application.ts'
export type { ExecutionContext } from './app/execution-context.ts'
export type { Manifest } from './binding/manifest.ts'
export { Controller } from './base/controller.ts'
export {
  accepted,
  Answer,
  answer,
  badRequest,
  conflict,
  created,
  forbidden,
  found,
  gone,
  html,
  isAnswer,
  movedPermanently,
  noContent,
  notFound,
  notModified,
  ok,
  permanentRedirect,
  preconditionFailed,
  problem,
  resetContent,
  seeOther,
  serviceUnavailable,
  temporaryRedirect,
  text,
  tooManyRequests,
  unauthorized,
  unprocessableContent,
} from './base/answer.ts'
export type {
  Accepted,
  AnswerHeaders,
  BadRequest,
  Conflict,
  Created,
  Forbidden,
  Found,
  Gone,
  Html,
  Json,
  LocationHeader,
  MovedPermanently,
  NoContent,
  NotFound,
  NotModified,
  Ok,
  PermanentRedirect,
  PreconditionFailed,
  Problem,
  ProblemDetails,
  ResetContent,
  SeeOther,
  ServiceUnavailable,
  TemporaryRedirect,
  Text,
  TooManyRequests,
  Unauthorized,
  UnprocessableContent,
} from './base/answer.ts'
export type {
  ErrorRenderer,
  HandlerArgs,
  HandlerKwargs,
  Kwargs,
  KwargValue,
  RequestContext,
  ResponseState,
  ServerEnv,
} from './base/controller.ts'
export {
  AccessDenied,
  CallError,
  CallStop,
  ERROR_CODES,
  HttpError,
  isHttpError,
  Redirect,
  RoutelessError,
  STATUS_TEXT,
} from './base/errors.ts'
export type { HttpErrorOptions, RoutelessErrorCode } from './base/errors.ts'
export { readBody, readBytes } from './lifecycle/body.ts'
export { getQuery } from './lifecycle/request.ts'
export { resolve, splitPath } from './routing/resolver.ts'
export type { Resolution } from './routing/resolver.ts'
export { errorResponse, toResponse } from './lifecycle/response.ts'
export { HTTP_METHODS } from './base/handler-names.ts'
export { RouteTable } from './routing/table.ts'
export type { Endpoint, Handler, RouteRow } from './routing/table.ts'
export { compileBinder, describeParams, jsonSchemaOf, params } from './binding/standard-schema.ts'
export type {
  ArgsOf,
  Binder,
  KwargsOf,
  ParamIssue,
  ParamSpec,
  ResponseSpec,
  StandardSchemaV1,
} from './binding/standard-schema.ts'
export { basicAuth, bearerAuth, check, guardsFor } from './guards/auth.ts'
export type { AuthSpec, BearerOptions, Guard } from './guards/auth.ts'
export { clientAddress, MemoryStore, rateLimit, RedisStore } from './guards/rate-limit.ts'
export type { RateLimitOptions, RateLimitStore, RedisLike } from './guards/rate-limit.ts'
export { withCors } from './wrappers/cors.ts'
export type { CorsOptions } from './wrappers/cors.ts'
export { createLogger, LOG_FORMATS, LOG_LEVELS } from './base/logging.ts'
export { withAccessLog } from './wrappers/access-log.ts'
export { RequestHeaders } from './base/headers.ts'
export type { Logger, LoggerOptions, LogFormat, LogLevel } from './base/logging.ts'
export { appOptionsFromConfig, defineConfig } from './cli/config-options.ts'
export type { RoutelessConfig } from './cli/config-options.ts'
export { runSocketHandler } from './lifecycle/websocket.ts'
export type { Frame, MessageProblem, Socket, SocketHandlers, UpgradeDecision } from './lifecycle/websocket.ts'
