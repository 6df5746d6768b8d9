/**
 * Writes the generated module beside the manifest (`routeless build`). Loads the generator, and with it Ajv: never
 * imported when serving.
 * @module
 */
import { mkdirSync, renameSync, writeFileSync } from 'node:fs'
import path from 'node:path'
import type { Manifest } from '../../runtime/contract/manifest.ts'
import { appModulePath } from '../../runtime/handlers/app-file.ts'
import { moduleSource } from './generate.ts'

/**
 * Writes the generated module for `manifest` beside `manifestFile` (atomically), with the functions of `handlers`
 * (their code by shape: `handlers.ts`'s `tableCode`); its path.
 */
export function writeAppModule(
  manifestFile: string,
  manifest: Manifest,
  cwd = process.cwd(),
  handlers: Record<string, string> = {},
): string {
  const file = appModulePath(manifestFile)
  const text = moduleSource(manifest, path.relative(cwd, manifestFile).split(path.sep).join('/'), handlers)
  mkdirSync(path.dirname(file), { recursive: true })
  const tmp = `${file}.${process.pid}.${Date.now()}.tmp`
  writeFileSync(tmp, text)
  renameSync(tmp, file)
  return file
}
