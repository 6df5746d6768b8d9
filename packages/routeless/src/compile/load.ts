/**
 * Start-up's choice of validators: the generated module's when it is fresh (no Ajv, no `new Function`), else the same
 * source generated and evaluated in memory (development, `--watch`, no build).
 * @module
 */
import type { Manifest } from '../binding/manifest.ts'
import type { Validators } from '../binding/validators.ts'
import { isFresh, whyStale, type CompiledModule } from './app-module.ts'
import { registerEvaluator, registerParts } from './handlers.ts'
import { statusSerializers } from '../binding/responses.ts'
import { nest } from '../binding/typed-binder.ts'
import { isAsyncIterable, lastEventId, streamReply } from '../lifecycle/event-stream.ts'
import { streamParts } from '../lifecycle/stream-parts.ts'
import { readBody } from '../lifecycle/body.ts'
import { evaluateHandler } from './handler-source.ts'
import { CompiledValidators, RUNTIME } from './runtime.ts'

// What `routeless` exports evaluates, at start-up, the handler code a generated module lacks (`handlers.ts`).
registerEvaluator(evaluateHandler)
// And everything only some handlers use (`handlers.ts`'s `LifecycleParts`), which a Worker's entry passes apart.
registerParts({
  statusSerializers,
  streamParts,
  runtime: { readBody, nest, streamReply, isAsyncIterable, lastEventId },
})

/** Where the generated module comes from: given (a bundle imports it), or read beside the manifest file. */
export interface CompiledSource {
  module?: Partial<CompiledModule>
  /** The app's `manifest` option: a path (default `.routeless/manifest.json`), whose `app.mjs` is read; or an object. */
  manifest?: Manifest | string
  cwd?: string
}

/** How the route table gets its validators (`BuildOptions.validators`), from `source`. */
export function compiledValidators(source: CompiledSource): (manifest: Manifest) => Promise<Validators> {
  return async (manifest) => {
    let module: (Partial<CompiledModule> & { loadError?: string; file?: string }) | undefined = source.module
    if (module === undefined && typeof source.manifest !== 'object')
      module = await (await import('./app-file.ts')).importAppModule(source.manifest, source.cwd)
    if (isFresh(module, manifest)) {
      const made = module.create(RUNTIME)
      return new CompiledValidators('generated', manifest.$defs, made.validators, made.serializers, made.handlers)
    }
    const { evaluate } = await import('./generate.ts')
    const made = evaluate(manifest, RUNTIME)
    const evaluated = new CompiledValidators('evaluated', manifest.$defs, made.validators, made.serializers)
    // A built module that is there and not used: said once at start-up, with the reason, never silently.
    const why = module && (module.loadError ?? whyStale(module, manifest))
    if (why)
      evaluated.notice =
        `The built module ${module!.file ?? '(given as the compiled option)'} is not used: ${why}. ` +
        'Handlers are evaluated at start-up instead; run `routeless build` again.'
    return evaluated
  }
}
