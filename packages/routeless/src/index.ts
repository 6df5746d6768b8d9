/**
 * routeless: a request path picks the controller module, class and method; there are no routes to write.
 * @module
 */
export * from './public.ts'
export { createApp } from './app/create-app.ts'
export { createAppFromModules } from './app/from-modules.ts'
export type { ControllerModule } from './app/from-modules.ts'
export { buildRouteTable } from './app/route-table.ts'
export { discoverModules, HTTP_METHODS, RouteTable } from './routing/route-table.ts'
export type { Endpoint, Handler, RouteRow } from './routing/route-table.ts'
export { generateOpenAPI } from './documents/openapi.ts'
export { generateAsyncAPI, type AsyncAPIOptions } from './documents/asyncapi.ts'
export type { ErrorBody, ErrorSite, OpenAPIInfo, OpenAPIOptions } from './documents/openapi.ts'
export type { RoutelessConfig } from './cli/config.ts'
export { watchControllers } from './app/watch.ts'
export type { Watcher, WatchOptions } from './app/watch.ts'
