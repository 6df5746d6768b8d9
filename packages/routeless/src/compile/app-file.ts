/**
 * The generated module on disk: `.routeless/app.mjs`, beside the manifest; written by `routeless build`, imported at
 * start-up (`load.ts`).
 * @module
 */
import { existsSync, mkdirSync, renameSync, statSync, writeFileSync } from 'node:fs'
import path from 'node:path'
import { pathToFileURL } from 'node:url'
import { MANIFEST_PATH, type Manifest } from '../binding/manifest.ts'
import type { CompiledModule } from './app-module.ts'
import { moduleSource } from './generate.ts'

/** The generated module's path for the manifest at `manifestFile`. */
export function appModulePath(manifestFile: string): string {
  return path.join(path.dirname(manifestFile), 'app.mjs')
}

/**
 * The generated module beside the manifest at `manifest` (default `.routeless/manifest.json`, relative to `cwd`), or
 * undefined when there is none (or it does not load).
 */
export async function importAppModule(
  manifest = MANIFEST_PATH,
  cwd = process.cwd(),
): Promise<Partial<CompiledModule> | undefined> {
  const file = appModulePath(path.resolve(cwd, manifest))
  if (!existsSync(file)) return undefined
  try {
    // Keyed by modification time: a module rebuilt while the process runs (tests, `routeless build`) is read again.
    return (await import(`${pathToFileURL(file).href}?t=${statSync(file).mtimeMs}`)) as Partial<CompiledModule>
  } catch {
    return undefined
  }
}

/** Writes the generated module for `manifest` beside `manifestFile` (atomically); its path. */
export function writeAppModule(manifestFile: string, manifest: Manifest, cwd = process.cwd()): string {
  const file = appModulePath(manifestFile)
  const text = moduleSource(manifest, path.relative(cwd, manifestFile).split(path.sep).join('/'))
  mkdirSync(path.dirname(file), { recursive: true })
  const tmp = `${file}.${process.pid}.${Date.now()}.tmp`
  writeFileSync(tmp, text)
  renameSync(tmp, file)
  return file
}
