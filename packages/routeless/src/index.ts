/**
 * routeless: a request path picks the controller module, class and method; there are no routes to write.
 * @module
 */
export { Application, createApp, DEFAULT_BODY_LIMIT } from './application.ts'
export type { AppOptions, ControllerSource, Logger, ModuleMap } from './application.ts'
export { Controller } from './controller.ts'
export type { ErrorRenderer, Kwargs, KwargValue, RequestContext, ResponseState } from './controller.ts'
export { AccessDenied, CallError, CallStop, ERROR_CODES, HttpError, isHttpError, Redirect, RoutelessError, STATUS_TEXT } from './errors.ts'
export type { HttpErrorOptions, RoutelessErrorCode } from './errors.ts'
export { getQuery, readBody, readBytes } from './request.ts'
export { resolve, splitPath } from './resolver.ts'
export type { Resolution } from './resolver.ts'
export { errorResponse, toResponse } from './response.ts'
export { buildRouteTable, discoverModules, HTTP_METHODS, RouteTable } from './route-table.ts'
export type { Endpoint, Handler, RouteRow } from './route-table.ts'
export { compileBinder, describeParams, jsonSchemaOf, params } from './params.ts'
export type { ArgsOf, Binder, KwargsOf, ParamIssue, ParamSpec, ResponseSpec, StandardSchemaV1 } from './params.ts'
export { generateOpenAPI } from './openapi.ts'
export type { OpenAPIInfo, OpenAPIOptions } from './openapi.ts'
