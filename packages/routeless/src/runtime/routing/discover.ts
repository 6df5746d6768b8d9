/**
 * Internal: finds the controller modules under a prefix (files and folders, `index` files, private names skipped)
 * and loads them, fresh in watch mode.
 * @module
 */
import { existsSync, readdirSync, statSync } from 'node:fs'
import path from 'node:path'
import { createRequire } from 'node:module'
import { pathToFileURL } from 'node:url'
import { RoutelessError } from '../base/errors.ts'
import type { ModuleExports, ModuleSource } from '../base/module-source.ts'
import { importModule } from './ts-loader.ts'

const MODULE_EXT = ['.ts', '.mts', '.js', '.mjs']

/** Files and folders under `prefix` that are controller modules. Files starting with `_` or `.` are private. */
export function discoverModules(prefix: string, cwd = process.cwd(), generation = 0): ModuleSource[] {
  const abs = path.resolve(cwd, prefix)
  const found: ModuleSource[] = []
  const asFile = resolveModuleFile(abs)
  if (!existsSync(abs) || !statSync(abs).isDirectory()) {
    if (!asFile) {
      throw new RoutelessError(
        'ROUTELESS_ERR_PREFIX_NOT_FOUND',
        `Controller prefix "${prefix}" not found: ${abs} is neither a directory nor a module file`,
      )
    }
    found.push(source([], asFile, abs, generation))
    return found
  }
  walk(abs, [], found, abs, generation)
  return found
}

function resolveModuleFile(abs: string): string | undefined {
  if (MODULE_EXT.some((e) => abs.endsWith(e)) && existsSync(abs) && statSync(abs).isFile()) return abs
  for (const e of MODULE_EXT) if (existsSync(abs + e) && statSync(abs + e).isFile()) return abs + e
  return undefined
}

function isModuleFile(name: string): boolean {
  return MODULE_EXT.some((e) => name.endsWith(e)) && !name.endsWith('.d.ts') && !/\.(test|spec)\.[mc]?[jt]s$/.test(name)
}

function walk(dir: string, parts: string[], out: ModuleSource[], root: string, generation: number): void {
  const entries = readdirSync(dir, { withFileTypes: true }).sort((a, b) => a.name.localeCompare(b.name))
  for (const entry of entries) {
    if (entry.name.startsWith('_') || entry.name.startsWith('.') || entry.name === 'node_modules') continue
    const full = path.join(dir, entry.name)
    if (entry.isDirectory()) walk(full, [...parts, entry.name], out, root, generation)
    else if (entry.isFile() && isModuleFile(entry.name)) {
      const base = entry.name.replace(/\.[mc]?[jt]s$/, '')
      out.push(source(base === 'index' ? parts : [...parts, base], full, root, generation))
    }
  }
}

/** `generation` > 0 (watch mode) loads a fresh copy of the module: a new URL for ESM, a cleared cache for CommonJS. */
function source(parts: string[], file: string, root: string, generation: number): ModuleSource {
  const url = pathToFileURL(file).href + (generation > 0 ? `?routeless-generation=${generation}` : '')
  return {
    parts,
    file,
    root,
    load: async () => {
      if (generation > 0) delete createRequire(import.meta.url).cache[file]
      // A library user's process (plain node, vitest: it leaves node_modules to Node) may have no TypeScript loader.
      return unwrapCommonJs(await importModule(url, file))
    },
  }
}

/** A `.ts` file outside a `"type": "module"` package loads as CommonJS: its exports arrive under `default`. */
function unwrapCommonJs(ns: ModuleExports): ModuleExports {
  const named = Object.keys(ns).filter((k) => k !== 'default' && k !== 'module.exports')
  const def = ns.default
  if (named.length === 0 && typeof def === 'object' && def !== null) return def as ModuleExports
  return ns
}

/** Controllers given directly as modules, keyed by their path (`''` is the root module, `'v3/status'` …). */
export type ModuleMap = Record<string, ModuleExports | (() => Promise<ModuleExports>)>

/** A prefix (`'controllers'`), several (`['a', 'b']` or `'a:b'`), or a module map for bundlers and tests. */
export type ControllerSource = string | string[] | { modules: ModuleMap }

/** The modules `source` names: each prefix's files (`a:b` is two prefixes), or the module map's entries. */
export function collectSources(source: ControllerSource, cwd: string, generation = 0): ModuleSource[] {
  if (typeof source === 'object' && !Array.isArray(source)) {
    return Object.entries(source.modules).map(([key, mod]) => ({
      parts: key.split('/').filter(Boolean),
      file: `<module ${key || 'index'}>`,
      load: typeof mod === 'function' ? (mod as () => Promise<ModuleExports>) : async () => mod,
    }))
  }
  const prefixes = (Array.isArray(source) ? source : [source]).flatMap((p) => p.split(':')).filter(Boolean)
  return prefixes.flatMap((p) => discoverModules(p, cwd, generation))
}
