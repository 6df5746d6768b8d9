/**
 * routeless/uws: serves an application on uWebSockets.js.
 * @module
 */
export * from './runtime/server/uws/index.ts'
