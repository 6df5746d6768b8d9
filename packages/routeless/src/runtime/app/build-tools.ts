/**
 * What the request half borrows from the build half, and only in development: the one file below the CLI that
 * reaches `analysis/` and `codegen/`, by dynamic `import()` (`scripts/check-core.mjs`'s `SEAMS`). Each tool loads
 * when it is used: a server started from a fresh `routeless build` uses none, and a Worker's bundle never sees this
 * file.
 * - `analysis`: TypeScript's reading of handler files the manifest does not describe (`runtime/contract/type-source.ts`);
 * - `keptAnalysis`: the same for `--watch`, its checker kept open across reloads (`runtime/app/watch.ts`);
 * - `ajvValidators`: Ajv's validators and the return types' serializers compiled at start-up (no generated module);
 * - `generate`: the generated module's source evaluated in memory (`runtime/handlers/load.ts`, a stale or absent build);
 * - `evaluator`: one handler's code evaluated at start-up when the build lacks it (`runtime/handlers/handlers.ts`);
 * - `checkReturn`: `checkReturns`' check of a returned value, which compiles with Ajv.
 * @module
 */
import { RoutelessError } from '../base/errors.ts'
import type { Manifest } from '../contract/manifest.ts'
import type { Analysis, KeptAnalysis } from '../contract/type-source.ts'
import type { Validators } from '../contract/validators.ts'
import type { GeneratedApp } from '../handlers/app-module.ts'
import type { Evaluate } from '../handlers/handlers.ts'
import type { ValidatorHelpers } from '../handlers/generated-validators.ts'
import type { ReturnCheck } from '../lifecycle/answer-check.ts'
import type { JsonSchema } from '../contract/manifest.ts'

export const buildTools = {
  async analysis(): Promise<Analysis> {
    const [a, { takeEarlyChecker }] = await Promise.all([
      import('../../compiler/analysis/analyze.ts'),
      import('../../compiler/analysis/early-analysis.ts'),
      // What follows an analysis (its manifest's validators made in memory), loaded while the checker opens its program.
      import('../../compiler/codegen/generate.ts'),
    ])
    return {
      async analyse(inputs, cwd) {
        // The checker the CLI started before the config (`early-analysis.ts`), its program opened meanwhile.
        const early = takeEarlyChecker(cwd)
        const ts = early ?? (await a.loadTypeScript(cwd))
        if (!ts) return undefined
        try {
          return a.analyze(ts, inputs, cwd)
        } catch (cause) {
          throw typesError(cause)
        } finally {
          early?.close()
        }
      },
    }
  },

  /** `analysis` for a watcher: one checker kept open across reloads (`compiler/analysis/kept-analysis.ts`). */
  keptAnalysis(): KeptAnalysis {
    let loading: Promise<KeptAnalysis> | undefined
    let loaded: KeptAnalysis | undefined
    let closed = false
    const load = () =>
      (loading ??= import('../../compiler/analysis/kept-analysis.ts').then(({ KeptChecking }) => {
        loaded = new KeptChecking()
        if (closed) loaded.close()
        return loaded
      }))
    return {
      async analyse(inputs, cwd) {
        const kept = await load()
        try {
          return await kept.analyse(inputs, cwd)
        } catch (cause) {
          throw typesError(cause)
        }
      },
      async prepare(files, cwd) {
        await (await load()).prepare(files, cwd)
      },
      close() {
        closed = true
        loaded?.close()
      },
    }
  },

  async ajvValidators(manifest: Manifest): Promise<Validators> {
    return (await import('../../compiler/codegen/ajv.ts')).ajvValidators(manifest)
  },

  async generate(): Promise<(manifest: Manifest, rt: ValidatorHelpers) => GeneratedApp> {
    return (await import('../../compiler/codegen/generate.ts')).evaluate
  },

  async evaluator(): Promise<Evaluate> {
    return (await import('../../compiler/codegen/handler-source.ts')).evaluateHandler
  },

  async checkReturn(): Promise<(schema: JsonSchema, defs: Record<string, JsonSchema>) => ReturnCheck> {
    return (await import('../../compiler/codegen/return-check.ts')).checkReturn
  },
}

/** A mistake the analysis found in the app's types, as the coded error start-up reports. */
function typesError(cause: unknown): RoutelessError {
  return new RoutelessError('ROUTELESS_ERR_TYPES', (cause as Error).message, { cause })
}
