/**
 * routeless/worker: what the entry of a Worker bundle (`routeless build --target=worker`) imports, and nothing that
 * a Worker does not run: no discovery, no TypeScript loader, no manifest reader, no code generator, no `node:*` module.
 * @module
 */
export { createWorkerApp } from './app/worker-app.ts'
export type { GeneratedCode } from './app/worker-app.ts'
export type { ControllerModule } from './app/assemble.ts'
export { appOptionsFromConfig, defineConfig } from './cli/config-options.ts'
