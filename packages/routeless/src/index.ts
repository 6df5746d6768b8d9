/**
 * routeless: a request path picks the controller module, class and method; there are no routes to write.
 * @module
 */
export * from './public.ts'
export { createApp } from './runtime/app/create-app.ts'
export { createAppFromModules } from './runtime/app/from-modules.ts'
export type { ControllerModule } from './runtime/app/from-modules.ts'
export { buildRouteTable } from './runtime/app/route-table.ts'
export { discoverModules, HTTP_METHODS, RouteTable } from './runtime/routing/route-table.ts'
export type { Endpoint, Handler, RouteRow } from './runtime/routing/route-table.ts'
export { generateOpenAPI } from './runtime/documents/openapi.ts'
export { generateAsyncAPI, type AsyncAPIOptions } from './runtime/documents/asyncapi.ts'
export type { ErrorBody, ErrorSite, OpenAPIInfo, OpenAPIOptions } from './runtime/documents/openapi.ts'
export type { RoutelessConfig } from './cli/config.ts'
export { watchControllers } from './runtime/app/watch.ts'
export type { Watcher, WatchOptions } from './runtime/app/watch.ts'
