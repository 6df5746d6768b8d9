/**
 * routeless/uws: serves an application on uWebSockets.js.
 * @module
 */
export * from './server/uws/index.ts'
