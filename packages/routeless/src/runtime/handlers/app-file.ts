/**
 * The generated module on disk: `.routeless/app.mjs`, beside the manifest; imported at start-up (`load.ts`), written
 * by `routeless build` (`write.ts`: that one loads the generator, and so Ajv).
 * @module
 */
import { existsSync, statSync } from 'node:fs'
import path from 'node:path'
import { pathToFileURL } from 'node:url'
import { MANIFEST_PATH } from '../contract/manifest.ts'
import type { CompiledModule } from './app-module.ts'

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
): Promise<(Partial<CompiledModule> & { loadError?: string; file?: string }) | undefined> {
  const file = appModulePath(path.resolve(cwd, manifest))
  if (!existsSync(file)) return undefined
  try {
    // Keyed by modification time: a module rebuilt while the process runs (tests, `routeless build`) is read again.
    const module = (await import(`${pathToFileURL(file).href}?t=${statSync(file).mtimeMs}`)) as Partial<CompiledModule>
    return { ...module, file }
  } catch (error) {
    // Not silently: start-up says the built module is not used, and why (`load.ts`).
    return { loadError: `it failed to load: ${(error as Error)?.message ?? String(error)}`, file }
  }
}
