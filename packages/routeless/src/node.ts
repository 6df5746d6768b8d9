/**
 * routeless/node: serves an application on node:http.
 * @module
 */
export * from './server/node/index.ts'
