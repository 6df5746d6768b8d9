/**
 * Where handler types come from at start-up: the manifest when it still describes the files (a warm start: hashing
 * only), else a fresh analysis with `typescript` (then cached), else — `typescript` absent and no manifest — the
 * parameter names read from the functions themselves, with one warning.
 * @module
 */
import { existsSync, readFileSync } from 'node:fs'
import path from 'node:path'
import type { ModuleSource } from '../base/module-source.ts'
import { MANIFEST_PATH, mergeManifests, servedPart, type Manifest } from './manifest.ts'
import { fileHashes, isFresh, readManifest, writeManifest } from './manifest-file.ts'
import { analysisKey, analyzerId, findTypeScript, runsHere } from './analysis-key.ts'
import { fromManifest, NO_SIGNATURES as NONE, type Signatures } from './signatures.ts'

export type { Signatures } from './signatures.ts'

/**
 * How start-up's warning that handler types could not be read begins (`routeless check` recognises it so): no
 * `typescript` and no manifest, or a manifest that does not describe the files named after it.
 */
export const NO_TYPES = {
  missing: 'typescript is not installed and there is no signature manifest',
  stale: 'The signature manifest does not describe',
}

/**
 * `'auto'` (default): manifest, else analysis, else names; `'manifest'`: the manifest only (production: never imports
 * `typescript`); `'off'`: names only, as before types were read.
 */
export type TypesMode = 'auto' | 'manifest' | 'off'

/**
 * TypeScript's analysis, given by the app in development (`runtime/app/build-tools.ts`); without it, files the manifest does
 * not describe are bound by name, with a warning.
 */
export interface Analysis {
  /** The manifest of `inputs`, analysed; undefined where TypeScript is not installed. */
  analyse(inputs: { file: string; module: string }[], cwd: string): Promise<Manifest | undefined>
}

/** The analysis of a watcher (`runtime/app/watch.ts`): one checker kept open across its analyses, until `close()`. */
export interface KeptAnalysis extends Analysis {
  /** Opens the checker over `files` before any analysis asks (watch start-up: the first edit then finds it open). */
  prepare(files: string[], cwd: string): Promise<void>
  /** Stops the checker (its process); an analysis asked after this opens a checker of its own. */
  close(): void
}

export interface SignatureOptions {
  cwd: string
  /** TypeScript's analysis, in `'auto'` mode: of stale files, and to tell a manifest written by another analyser. */
  analysis?: () => Promise<Analysis>
  mode?: TypesMode
  /** A manifest object, or its path (default `.routeless/manifest.json` under `cwd`). */
  manifest?: Manifest | string
}

export async function loadSignatures(sources: ModuleSource[], options: SignatureOptions): Promise<Signatures> {
  const mode = options.mode ?? 'auto'
  if (mode === 'off') return NONE
  const { cwd } = options
  const manifestFile =
    typeof options.manifest === 'string' || options.manifest === undefined
      ? path.resolve(cwd, options.manifest ?? MANIFEST_PATH)
      : undefined
  let manifest = typeof options.manifest === 'object' ? options.manifest : readManifest(manifestFile!)
  const rel = (file: string) => path.relative(cwd, file).split(path.sep).join('/')
  const files = sources.filter((s) => !s.file.startsWith('<') && existsSync(s.file) && declaresTypes(s.file))
  // A cache written under another key (another analyser, TypeScript version or tsconfig) is read again where
  // TypeScript is at hand and can run (never in 'manifest' mode: that one was built to ship). Where it cannot (Bun or
  // Deno with TypeScript 7, whose key differs as they load routeless's code differently), the files' hashes decide.
  const warnings: string[] = []
  if (mode === 'auto' && options.analysis && manifestFile && manifest && files.length > 0) {
    const ts = findTypeScript(cwd)
    const key = ts && runsHere(ts.version) ? analysisKey(ts.version, cwd) : undefined
    if (key !== undefined && manifest.analyzer !== key) {
      // Said, not silent: the build beside this manifest (`app.mjs`) goes unused if the analysis comes out otherwise.
      const other = manifest.analyzer?.slice(0, manifest.analyzer.lastIndexOf('-')) ?? '(none)'
      warnings.push(
        `The signature manifest ${rel(manifestFile)} was written ${
          other === analyzerId()
            ? 'for another TypeScript version or tsconfig'
            : `by another analyser (${other}; this is ${analyzerId()})`
        }: handler types are analysed again.`,
      )
      manifest = undefined
    }
  }
  const hashOf = fileHashes()
  const stale = files.filter((s) => !isFresh(manifest?.files[rel(s.file)], s.file, cwd, hashOf))
  const analysed: string[] = []
  let origin: Signatures['origin'] = manifest ? 'manifest' : 'none'
  if (stale.length > 0) {
    const inputs = stale.map((s) => ({ file: s.file, module: s.parts.join('/') }))
    const analysis = mode === 'auto' ? await options.analysis?.() : undefined
    const fresh = analysis && (await analysis.analyse(inputs, cwd))
    if (fresh) {
      manifest = mergeManifests(manifest, fresh)
      if (manifestFile) writeManifest(manifestFile, manifest)
      origin = 'analysis'
      analysed.push(...stale.map((s) => rel(s.file)))
    } else {
      const names =
        stale
          .slice(0, 3)
          .map((s) => rel(s.file))
          .join(', ') + (stale.length > 3 ? ` and ${stale.length - 3} more` : '')
      warnings.push(
        mode === 'manifest' || manifest
          ? `${NO_TYPES.stale} ${names} (edited since \`routeless build\`?): ` +
              'their parameters are bound by name, unchecked. Run `routeless build`.'
          : `${NO_TYPES.missing}: handler parameters are bound by name, ` +
              'unchecked (install typescript, or run `routeless build` where it is).',
      )
    }
  }
  if (!manifest) return { ...NONE, warnings }
  // Every file served, not only those that declare types: `routeless build` analysed a JavaScript file without JSDoc
  // too (its defaults' types), and `lookup` finds its handlers.
  const served = new Set(sources.map((s) => rel(s.file)))
  const signatures = fromManifest(manifest, {
    rel,
    staleFiles: new Set(origin === 'analysis' ? [] : stale.map((s) => s.file)),
    served,
    warnings,
    origin,
    analysed,
  })
  // A module given in memory is found by its module path, not by a file: then the whole manifest.
  signatures.served = sources.some((s) => s.file.startsWith('<')) ? manifest : servedPart(manifest, served)
  return signatures
}

/** TypeScript files always; JavaScript files only when they carry JSDoc types (else there is nothing to read). */
function declaresTypes(file: string): boolean {
  if (/\.[mc]?ts$/.test(file)) return true
  try {
    return /@(?:param|type|typedef|returns?)\b/.test(readFileSync(file, 'utf8'))
  } catch {
    return false
  }
}
