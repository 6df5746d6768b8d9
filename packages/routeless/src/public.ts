/**
 * What a controller or a config may import from `routeless`, the same from node (`index.ts`) and from a Worker
 * (`worker.ts`): both re-export this list, so the two cannot drift apart. Only what runs everywhere belongs here.
 * @module
 */
export { Application, DEFAULT_BODY_LIMIT } from './app/application.ts'
export type { AppOptions, AppServices, ControllerSource, ModuleMap } from './app/application.ts'
export type { ExecutionContext } from './app/execution-context.ts'
export type { Manifest } from './contract/manifest.ts'
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
export type { Sse } from './lifecycle/event-stream.ts'
export { compileBinder, describeParams, jsonSchemaOf, params } from './contract/standard-schema.ts'
export type {
  ArgsOf,
  Binder,
  KwargsOf,
  ParamIssue,
  ParamSpec,
  ResponseSpec,
  StandardSchemaV1,
} from './contract/standard-schema.ts'
export { basicAuth, bearerAuth, check, guardsFor } from './guards/auth.ts'
export type { AuthSpec, BearerOptions, Guard } from './guards/auth.ts'
export { describeGuard, guardInfoOf } from './guards/guard-info.ts'
export type { GuardInfo, SecurityScheme } from './guards/guard-info.ts'
export { clientAddress, MemoryStore, rateLimit, RedisStore } from './guards/rate-limit.ts'
export type { RateLimitOptions, RateLimitStore, RedisLike } from './guards/rate-limit.ts'
export { withCors } from './wrappers/cors.ts'
export type { CorsOptions } from './wrappers/cors.ts'
export { createLogger, LOG_FORMATS, LOG_LEVELS } from './base/logging.ts'
export { withAccessLog } from './wrappers/access-log.ts'
export { RequestHeaders } from './base/headers.ts'
export type { Logger, LoggerOptions, LogFormat, LogLevel } from './base/logging.ts'
export { appOptionsFromConfig, defineConfig } from './cli/config-options.ts'
export { runSocketHandler } from './lifecycle/websocket.ts'
export type { Frame, MessageProblem, Socket, SocketHandlers, UpgradeDecision } from './lifecycle/websocket.ts'
