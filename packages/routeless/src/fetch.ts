/**
 * routeless/fetch: the application as a `@whatwg-node/server` adapter, for any Fetch host and node.
 * @module
 */
export * from './runtime/server/fetch/index.ts'
