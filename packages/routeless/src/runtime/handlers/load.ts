/**
 * Start-up's choice of validators: the generated module's when it is fresh (no Ajv, no `new Function`), else the same
 * source generated and evaluated in memory (development, `--watch`, no build).
 * @module
 */
import { RoutelessError } from '../base/errors.ts'
import type { Manifest } from '../contract/manifest.ts'
import type { Validators } from '../contract/validators.ts'
import { isFresh, whyStale, type CompiledModule } from './app-module.ts'
import type { GeneratedApp } from './app-module.ts'
import type { ValidatorHelpers } from './generated-validators.ts'
import { GeneratedValidators, VALIDATOR_HELPERS } from './generated-validators.ts'

/** Where the generated module comes from: given (a bundle imports it), or read beside the manifest file. */
export interface AppModuleSource {
  module?: Partial<CompiledModule>
  /** The app's `manifest` option: a path (default `.routeless/manifest.json`), whose `app.mjs` is read; or an object. */
  manifest?: Manifest | string
  cwd?: string
  /**
   * The generator of the module's source, evaluated in memory when the module is absent or stale (development:
   * `runtime/app/build-tools.ts`); without it, a missing or stale module is a start-up error naming `routeless build`.
   */
  generate?: () => Promise<(manifest: Manifest, rt: ValidatorHelpers) => GeneratedApp>
}

/**
 * How the route table gets its validators (`BuildOptions.validators`), from `source`. A built module is fresh for the
 * whole `manifest`; evaluated at start-up, only the `served` part's validators are made.
 */
export function generatedValidators(
  source: AppModuleSource,
): (manifest: Manifest, served?: Manifest) => Promise<Validators> {
  return async (manifest, served = manifest) => {
    let module: (Partial<CompiledModule> & { loadError?: string; file?: string }) | undefined = source.module
    if (module === undefined && typeof source.manifest !== 'object')
      module = await (await import('./app-file.ts')).importAppModule(source.manifest, source.cwd)
    if (isFresh(module, manifest)) {
      const made = module.create(VALIDATOR_HELPERS)
      return new GeneratedValidators('generated', manifest.$defs, made.validators, made.serializers, made.handlers)
    }
    const why = module && (module.loadError ?? whyStale(module, manifest))
    if (!source.generate)
      throw new RoutelessError(
        'ROUTELESS_ERR_BUNDLE',
        `The built module ${module?.file ?? '(given as the compiled option)'} ${why ? `is not used: ${why}` : 'is missing'}` +
          ': run `routeless build` again',
      )
    const made = (await source.generate())(served, VALIDATOR_HELPERS)
    const evaluated = new GeneratedValidators('evaluated', manifest.$defs, made.validators, made.serializers)
    // A built module that is there and not used: said once at start-up, with the reason, never silently.
    if (why)
      evaluated.notice =
        `The built module ${module!.file ?? '(given as the compiled option)'} is not used: ${why}. ` +
        'Handlers are evaluated at start-up instead; run `routeless build` again.'
    return evaluated
  }
}
