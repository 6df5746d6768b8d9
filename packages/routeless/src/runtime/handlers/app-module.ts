/**
 * The generated module's shape, and how a caller knows it still describes the app. `routeless build` writes it
 * beside the manifest (`.routeless/app.mjs`; `generate.ts` makes its text):
 *
 * ```js
 * // routeless build: … Generated from .routeless/manifest.json; do not edit.
 * export const routeless = '0.1.0+code.2'   // the version that wrote it, and of its code (CODE_ID)
 * export const manifest = 'fnv1a:…'          // manifestKey() of the manifest it was generated from
 * export function create(rt) {               // rt: VALIDATOR_HELPERS from runtime/handlers/generated-validators.ts
 *   …                                        // Ajv's standalone validators, helpers taken from rt
 *   return {
 *     validators: { '<schema JSON>': validate, … },    // Ajv's ValidateFunction: errors in .errors
 *     serializers: { '<return type JSON>': function (M, fb, str, iso, MAX_DEPTH, DJ) { … } | null, … },
 *     handlers: { '<shapeKey>': function (p, rt) { … return function run(call) { … } }, … },  // handlers.ts
 *   }
 * }
 * ```
 *
 * The module imports nothing; its caller hands it the helpers. A module is used only when both keys match
 * (`isFresh`); otherwise the same source is generated and evaluated in memory at start-up. A handler whose shape's
 * code the module lacks (changed since the build) has that code evaluated at start-up (`runtime/handlers/handlers.ts`).
 * @module
 */
import type { Manifest } from '../contract/manifest.ts'
import type { SerializerFactory } from '../contract/serializer-runtime.ts'
import type { ValidateFunction } from '../contract/validators.ts'
import { VERSION } from '../base/version.ts'
import type { ValidatorHelpers } from './generated-validators.ts'

/** What `create(rt)` returns. */
export interface GeneratedApp {
  /** Ajv's validators of every schema a handler's binder checks, by `schemaKey`. */
  validators: Record<string, ValidateFunction>
  /** The serializer factory of every return type, by `schemaKey` (`null`: none helps; `compiler/codegen/serializer.ts`). */
  serializers: Record<string, SerializerFactory | null>
  /** Each handler's function (`runtime/handlers/handlers.ts`), by the key of its source; absent from older modules. */
  handlers?: Record<string, Function>
}

/** The generated module, as `import * as compiled from './.routeless/app.mjs'` sees it. */
export interface CompiledModule {
  routeless: string
  manifest: string
  create(rt: ValidatorHelpers): GeneratedApp
}

/** The key of a manifest's content (FNV-1a, 2×32 bits, of its JSON text: no `node:crypto` needed). */
export function manifestKey(manifest: Manifest): string {
  return textKey(JSON.stringify(manifest))
}

/** The key of a text (FNV-1a, 2×32 bits): a manifest's, a generated handler's source. */
export function textKey(text: string): string {
  let a = 0x811c9dc5
  let b = 0x01000193 ^ text.length
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i)
    a = Math.imul(a ^ c, 0x01000193)
    b = Math.imul(b ^ c, 0x5bd1e995)
  }
  return `fnv1a:${(a >>> 0).toString(16).padStart(8, '0')}${(b >>> 0).toString(16).padStart(8, '0')}`
}

/**
 * Raise it with any change to what the generated code calls or how (`rt.missingKey`, `call.resolution` …): a module
 * written under another number is not used, even by the same version of routeless (a checkout between releases).
 */
export const GENERATED_CODE_VERSION = 3

/** What a generated module's `routeless` export names: the version of routeless and of its generated code. */
export const CODE_ID = `${VERSION}+code.${GENERATED_CODE_VERSION}`

/** True when `module` was generated from `manifest` by this version of routeless and of its generated code. */
export function isFresh(module: Partial<CompiledModule> | undefined, manifest: Manifest): module is CompiledModule {
  return (
    module !== undefined &&
    module.routeless === CODE_ID &&
    typeof module.create === 'function' &&
    module.manifest === manifestKey(manifest)
  )
}

/** Why `module` is not fresh for `manifest`, in words for the start-up warning; undefined when it is. */
export function whyStale(module: Partial<CompiledModule>, manifest: Manifest): string | undefined {
  if (module.routeless !== CODE_ID)
    return `it was built by routeless ${module.routeless ?? '(unknown)'}, this is ${CODE_ID}`
  if (typeof module.create !== 'function') return 'it exports no create function'
  if (module.manifest !== manifestKey(manifest))
    return (
      'the manifest changed since it was built (handler types were analysed again: ' +
      'a controller, a type, the tsconfig, TypeScript or routeless changed)'
    )
  return undefined
}
