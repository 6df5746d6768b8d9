/**
 * routeless/node: serves an application on node:http.
 * @module
 */
export * from './runtime/server/node/index.ts'
