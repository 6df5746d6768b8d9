/**
 * routeless/worker: what the entry of a Worker bundle (`routeless build --target=worker`) imports, and nothing that
 * a Worker does not run: no discovery, no TypeScript loader, no manifest reader, no `node:*` module.
 * @module
 */
export { createAppFromModules } from './app/from-modules.ts'
export type { ControllerModule } from './app/from-modules.ts'
export { appOptionsFromConfig, defineConfig } from './cli/config-options.ts'
