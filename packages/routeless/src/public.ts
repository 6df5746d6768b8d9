/**
 * What a controller or a config may import from `routeless`, the same from node (`index.ts`) and from a Worker
 * (`worker.ts`): both re-export this list, so the two cannot drift apart. Only what runs everywhere belongs here.
 * @module
 */
export { Application, DEFAULT_BODY_LIMIT } from './runtime/app/application.ts'
export type { AppOptions, AppServices, ControllerSource, ModuleMap } from './runtime/app/application.ts'
export type { ExecutionContext } from './runtime/app/execution-context.ts'
export type { Manifest } from './runtime/contract/manifest.ts'
export { Controller } from './runtime/base/controller.ts'
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
} from './runtime/base/answer.ts'
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
} from './runtime/base/answer.ts'
export type {
  ErrorRenderer,
  HandlerArgs,
  HandlerKwargs,
  Kwargs,
  KwargValue,
  RequestContext,
  ResponseState,
  ServerEnv,
} from './runtime/base/controller.ts'
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
} from './runtime/base/errors.ts'
export type { HttpErrorOptions, RoutelessErrorCode } from './runtime/base/errors.ts'
export { readBody } from './runtime/lifecycle/body.ts'
export { readBytes } from './runtime/lifecycle/body-bytes.ts'
export { getQuery } from './runtime/lifecycle/request.ts'
export { resolve, splitPath } from './runtime/routing/resolver.ts'
export type { Resolution } from './runtime/routing/resolver.ts'
export { errorResponse, toResponse } from './runtime/lifecycle/fetch-response.ts'
export type { Sse } from './runtime/lifecycle/event-stream.ts'
export { compileBinder, describeParams, jsonSchemaOf, params } from './runtime/contract/standard-schema.ts'
export type {
  ArgsOf,
  Binder,
  KwargsOf,
  ParamIssue,
  ParamSpec,
  ResponseSpec,
  StandardSchemaV1,
} from './runtime/contract/standard-schema.ts'
export { basicAuth, bearerAuth, check, guardsFor } from './runtime/guards/auth.ts'
export type { AuthSpec, BearerOptions, Guard } from './runtime/guards/auth.ts'
export { describeGuard, guardInfoOf } from './runtime/guards/guard-info.ts'
export type { GuardInfo, SecurityScheme } from './runtime/guards/guard-info.ts'
export { clientAddress, MemoryStore, rateLimit, RedisStore } from './runtime/guards/rate-limit.ts'
export type { RateLimitOptions, RateLimitStore, RedisLike } from './runtime/guards/rate-limit.ts'
export { withCors } from './runtime/wrappers/cors.ts'
export type { CorsOptions } from './runtime/wrappers/cors.ts'
export { createLogger, LOG_FORMATS, LOG_LEVELS } from './runtime/base/logging.ts'
export { withAccessLog } from './runtime/wrappers/access-log.ts'
export { RequestHeaders } from './runtime/base/headers.ts'
export type { Logger, LoggerOptions, LogFormat, LogLevel } from './runtime/base/logging.ts'
export { appOptionsFromConfig, defineConfig } from './cli/config-options.ts'
export { runSocketHandler } from './runtime/lifecycle/websocket.ts'
export type { Frame, MessageProblem, Socket, SocketHandlers, UpgradeDecision } from './runtime/lifecycle/websocket.ts'
