/**
 * Internal: the CLI's use of what `routeless build` compiled for node (`node-build.ts`): `findBuilt` says whether
 * `.routeless/node/` is fresh — built by this routeless, from the config file the CLI would read, for the controller
 * files found now under the prefix served, every file that went in unchanged (sha256) — and only then the CLI imports
 * the config and the controllers from it instead of registering tsx for the sources. Anything else (no build, an
 * edited or added file, another prefix) is not an error: the sources are served, as without a build. Node only: Bun
 * and Deno load TypeScript themselves.
 * @module
 */
import { existsSync, readFileSync } from 'node:fs'
import path from 'node:path'
import { pathToFileURL } from 'node:url'
import type { ModuleExports, ModuleSource } from '../../runtime/base/module-source.ts'
import { VERSION } from '../../runtime/base/version.ts'
import { fileHashes } from '../../runtime/contract/manifest-file.ts'
import { collectSources } from '../../runtime/routing/discover.ts'

/** Where the build writes it, relative to the project, and its record of what went in. */
export const BUILT_DIR = '.routeless/node'
export const BUILT_RECORD = 'built.json'
/** The hash recorded for a file that was not there (the project's tsconfig.json). */
export const ABSENT = 'absent'

export interface BuiltRecord {
  /** The routeless that built it. */
  routeless: string
  /** The config file compiled (relative to the project), or null. */
  config: string | null
  /** The prefix served without a flag (the config's, else `controllers`). */
  prefix: string[]
  /** The controller files, in the order found. */
  modules: string[]
  /** Every file compiled in (controllers, config, the local files they import, the tsconfig) and its sha256. */
  inputs: Record<string, string>
}

/** A fresh build: the config's exports, and the controllers found under `prefix` with their compiled exports. */
export interface Built {
  prefix: string[]
  config: () => Promise<ModuleExports>
  /** The controller modules as `collectSources(prefix)` finds them, each loading from the build. */
  sources: (prefix: string[]) => ModuleSource[] | undefined
}

/** `path.relative`, `/`-separated. */
export function relativeTo(cwd: string, file: string): string {
  return path.relative(cwd, file).split(path.sep).join('/')
}

/**
 * The build under `cwd`, when it is fresh for the config file `config` and the prefix `prefix` (undefined: the one
 * the build recorded, which the unchanged config gives); else undefined.
 */
export function findBuilt(cwd: string, config: string | undefined, prefix: string[] | undefined): Built | undefined {
  // Bun and Deno load TypeScript themselves: they serve the sources.
  if (process.versions.bun || process.versions.deno) return undefined
  const dir = path.join(cwd, BUILT_DIR)
  let record: BuiltRecord
  try {
    record = JSON.parse(readFileSync(path.join(dir, BUILT_RECORD), 'utf8'))
  } catch {
    return undefined
  }
  if (record.routeless !== VERSION) return undefined
  if ((config === undefined ? null : relativeTo(cwd, config)) !== record.config) return undefined
  const served = prefix ?? record.prefix.map((p) => path.resolve(cwd, p))
  const hashOf = fileHashes()
  for (const [file, hash] of Object.entries(record.inputs)) {
    const abs = path.resolve(cwd, file)
    if (existsSync(abs) ? hashOf(abs) !== hash : hash !== ABSENT) return undefined
  }
  // With its source maps (as tsx would), so a stack names the controller's own file and line, not the build's.
  const load = (name: string) => {
    process.setSourceMapsEnabled(true)
    return import(pathToFileURL(path.join(dir, `${name}.mjs`)).href)
  }
  let controllers: Promise<ModuleExports[]> | undefined
  const sources = (wanted: string[]): ModuleSource[] | undefined => {
    let found: ModuleSource[]
    try {
      found = collectSources(wanted, cwd)
    } catch {
      return undefined
    }
    const files = found.map((s) => relativeTo(cwd, s.file))
    if (files.length !== record.modules.length || files.some((f, i) => f !== record.modules[i])) return undefined
    return found.map((s, i) => ({
      ...s,
      load: async () => {
        controllers ??= load('controllers').then((ns: { modules: ModuleExports[] }) => ns.modules)
        return (await controllers)[i]!
      },
    }))
  }
  if (!sources(served)) return undefined
  return {
    prefix: served,
    config: () => load('config'),
    sources,
  }
}
