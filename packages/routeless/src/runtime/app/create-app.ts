/**
 * `createApp`: an application from controller prefixes (found on disk) or a module map, with the handler types of
 * the manifest on disk or the TypeScript analysis, and the services its options ask for (`services.ts`).
 * @module
 */
import { Application } from './application.ts'
import { collectSources, type AppOptions, type ControllerSource } from './options.ts'
import { loadServices } from './services.ts'
import { buildRouteTable } from '../routing/route-table.ts'
import { generatedValidators } from '../handlers/load.ts'
import { lacksCode } from '../handlers/handlers.ts'
import { buildTools } from './build-tools.ts'
import type { ModuleSource } from '../base/module-source.ts'
import type { Analysis } from '../contract/type-source.ts'

/** Builds an application from controller prefixes (or a module map): every module loaded, the route table built. */
export function createApp(source: ControllerSource, options: AppOptions = {}): Promise<Application> {
  return createAppFromSources(collectSources(source, options.cwd ?? process.cwd()), options)
}

/**
 * Internal: `createApp` from the modules found already (the CLI's, loading from what `routeless build` compiled).
 * `analysis`: how types the manifest lacks are read (the CLI's `--watch` gives the checker its watcher keeps).
 */
export async function createAppFromSources(
  sources: ModuleSource[],
  options: AppOptions = {},
  analysis: () => Promise<Analysis> = buildTools.analysis,
): Promise<Application> {
  const cwd = options.cwd ?? process.cwd()
  const validators = generatedValidators({ module: options.compiled, manifest: options.manifest, cwd, ...buildTools })
  const table = await buildRouteTable(sources, {
    cwd,
    types: options.types,
    manifest: options.manifest,
    auth: options.auth,
    validators: async (manifest, served) => {
      const made = await validators(manifest, served)
      // Validators without the handlers' code (not a fresh build's): the evaluator is needed (`lacksCode`). It loads
      // now, with them, before the modules (`buildRouteTable`: tsx, where it is registered, slows every later import).
      if (!made.handlers || options.checkReturns) await buildTools.evaluator().catch(() => undefined)
      return made
    },
    analysis,
  })
  const services = await loadServices(options)
  if (lacksCode(table, !!options.checkReturns)) services.evaluate = await buildTools.evaluator()
  const app = new Application(table, options, services)
  for (const warning of table.warnings) app.warn(warning)
  return app
}
