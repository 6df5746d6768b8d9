/**
 * Handler types as the route table asks for them (`Signatures`), and the ones a manifest object gives: what a bundle
 * uses, reading no file (`type-source.ts` finds the manifest on disk, checks it against the files and analyses what
 * is stale, then answers through `fromManifest`).
 * @module
 */
import type { ModuleSource } from '../base/module-source.ts'
import { fileOfModule, handlerKey, type HandlerTypes, type JsonSchema, type Manifest } from './manifest.ts'

export interface Signatures {
  /** The types of handler `method` of class `className` exported by `source`, when known and current. */
  lookup(source: ModuleSource, className: string, method: string): HandlerTypes | undefined
  defs: Record<string, JsonSchema>
  warnings: string[]
  /** How the types were obtained, for tests and `routeless build`. */
  origin: 'manifest' | 'analysis' | 'none'
  /** The files analysed by this start (relative to `cwd`): the stale ones only; the others came from the cache. */
  analysed: string[]
  manifest: Manifest | undefined
  /**
   * The part of `manifest` the served files use (`servedPart`): the validators start-up makes when no built module
   * is fresh. The whole manifest where the files served are not known (modules given in memory).
   */
  served?: Manifest
}

export const NO_SIGNATURES: Signatures = {
  lookup: () => undefined,
  defs: {},
  warnings: [],
  origin: 'none',
  analysed: [],
  manifest: undefined,
}

export interface FromManifest {
  /** A served file's name as the manifest keys it (relative to the project, `/`-separated). */
  rel: (file: string) => string
  /** Files the manifest no longer describes: their handlers are untyped. */
  staleFiles?: ReadonlySet<string>
  /** The files served: the warnings the manifest holds for their handlers are reported. */
  served?: ReadonlySet<string>
  warnings?: string[]
  origin?: Signatures['origin']
  analysed?: string[]
}

/**
 * The signatures `manifest` gives. A module given directly (its `file` is `<…>`) is found by the file it names, else
 * by its path below the prefix.
 */
export function fromManifest(manifest: Manifest, options: FromManifest): Signatures {
  const { rel, staleFiles, served } = options
  const warnings = options.warnings ?? []
  for (const [key, types] of Object.entries(manifest.handlers)) {
    if (types.warnings && (served === undefined || served.has(key.slice(0, key.indexOf('#')))))
      for (const w of types.warnings) warnings.push(`${key.replace('#', ': ')}: ${w}`)
  }
  return {
    origin: options.origin ?? 'manifest',
    analysed: options.analysed ?? [],
    manifest,
    defs: manifest.$defs,
    warnings,
    lookup(source, className, method) {
      if (staleFiles?.has(source.file)) return undefined
      const file = source.file.startsWith('<')
        ? (source.manifestFile ?? fileOfModule(manifest, source.parts.join('/')))
        : rel(source.file)
      return file === undefined ? undefined : manifest.handlers[handlerKey(file, className, method)]
    },
  }
}
