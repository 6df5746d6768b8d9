/**
 * routeless/cli: the command line (`routeless serve`, `build`, `openapi`, `client`, `explain`, `check`).
 * @module
 */
export * from './cli/main.ts'
