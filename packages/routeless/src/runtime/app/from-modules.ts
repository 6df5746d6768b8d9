/**
 * An application from controller modules given directly, for hosts with no filesystem at run time (a Worker, a
 * bundle): `createAppFromModules([{ path: 'users', exports: users }], { manifest })`. It reads no file, calls no
 * `process.cwd()`, imports no TypeScript and no `node:*` module, and loads none of what `createApp` adds beside the
 * core (telemetry, `app.openapi()`, the docs page: `services.ts`): typed binding comes from the manifest
 * `routeless build` wrote, passed as an object. Validators and serializers are compiled when it starts; a bundle
 * that `routeless build --target=worker` writes calls `createWorkerApp` instead, with them generated ahead of time.
 * @module
 */
import { generatedValidators } from '../handlers/load.ts'
import { buildTools } from './build-tools.ts'
import { ALL_PARTS } from '../routing/table-parts.ts'
import { CORE_SERVICES } from './core-services.ts'
import type { Application } from './application.ts'
import { assembleApp, type ControllerModule } from './assemble.ts'
import type { AppOptions, ModuleMap } from './options.ts'

export type { ControllerModule } from './assemble.ts'

/**
 * Builds an application from `modules`: a list of `ControllerModule`s, or a module map keyed by path (`{ '': index,
 * users }`). `options` are `createApp`'s; `manifest` is the signature manifest object (with it, handlers are typed as
 * on node and `types` defaults to `'manifest'`; without it, to `'off'`: parameters bound by name). `cwd` defaults to
 * `/` (nothing is read from it). `tracing`, `metrics` and `docs` need `createApp`.
 */
export async function createAppFromModules(
  modules: ModuleMap | readonly ControllerModule[],
  options: AppOptions = {},
): Promise<Application> {
  return assembleApp(
    modules,
    options,
    {
      validators: generatedValidators({
        module: options.compiled,
        manifest: options.manifest,
        cwd: options.cwd ?? '/',
        ...buildTools,
      }),
      parts: ALL_PARTS,
      evaluator: buildTools.evaluator,
    },
    CORE_SERVICES,
  )
}
