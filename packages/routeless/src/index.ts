/**
 * routeless: a request path picks the controller module, class and method; there are no routes to write.
 * @module
 */
export * from './public.ts'
export { createApp } from './app/create-app.ts'
export { createAppFromModules } from './app/from-modules.ts'
export type { ControllerModule } from './app/from-modules.ts'
export { buildRouteTable, discoverModules, HTTP_METHODS, RouteTable } from './routing/route-table.ts'
export type { Endpoint, Handler, RouteRow } from './routing/route-table.ts'
export { generateOpenAPI } from './tooling/openapi.ts'
export { generateAsyncAPI, type AsyncAPIOptions } from './tooling/asyncapi.ts'
export type { ErrorBody, ErrorSite, OpenAPIInfo, OpenAPIOptions } from './tooling/openapi.ts'
export type { RoutelessConfig } from './cli/config.ts'
export { watchControllers } from './app/watch.ts'
export type { Watcher, WatchOptions } from './app/watch.ts'
