/**
 * A manifest's freshness key (`analysisKey`, stored as the manifest's `analyzer`), which start-up checks without
 * loading the analysis: the analyser's name (routeless's version and a constant raised whenever the analyser would
 * write another manifest for the same source), the TypeScript version and the project's tsconfig. Not the analyser's
 * source text: a bundler, a minifier, a coverage instrumenter or Bun's transpiler rewrites that, and a key made of it
 * would silently drop every build made by the unrewritten code.
 * @module
 */
import { createHash } from 'node:crypto'
import { existsSync, readFileSync } from 'node:fs'
import { createRequire } from 'node:module'
import path from 'node:path'
import { VERSION } from '../base/version.ts'

/**
 * Raise it with any change to what `compiler/analysis/analyze.ts`, `type-schema.ts` or the readers write into a manifest (another
 * schema for the same type, a new field): a manifest written under another number is read again.
 */
export const ANALYZER_VERSION = 5

/** Names this analyser: `0.1.0+analyzer.1`. */
export function analyzerId(): string {
  return `${VERSION}+analyzer.${ANALYZER_VERSION}`
}

/** Where the `typescript` package `name` the application would import is (its own install first), and its version. */
export function findTypeScript(cwd: string, name = 'typescript'): { version: string; manifest: string } | undefined {
  for (const from of [path.join(cwd, 'package.json'), import.meta.url]) {
    try {
      const manifest = createRequire(from).resolve(`${name}/package.json`)
      return { manifest, version: (JSON.parse(readFileSync(manifest, 'utf8')) as { version: string }).version }
    } catch {
      // not installed there
    }
  }
  return undefined
}

/**
 * The key a cached analysis is valid under: this analyser's code, the TypeScript version, and the text of the
 * project's tsconfig (and of the file it extends, when that is a relative path) — a change to any of them analyses
 * every file again.
 */
export function analysisKey(typescriptVersion: string, cwd: string): string {
  const hash = createHash('sha256').update(`${analyzerId()}\n${typescriptVersion}\n`)
  let config = findConfigFile(cwd)
  for (let i = 0; config && i < 5; i++) {
    const text = readFileSync(config, 'utf8')
    hash.update(`${config}\n${text}\n`)
    const base = /"extends"\s*:\s*"(\.{1,2}\/[^"]+)"/.exec(text)?.[1]
    config = base ? path.resolve(path.dirname(config), base.endsWith('.json') ? base : `${base}.json`) : undefined
    if (config && !existsSync(config)) config = undefined
  }
  return `${analyzerId()}-${hash.digest('hex').slice(0, 16)}`
}

/**
 * Whether TypeScript `version`'s synchronous API runs in this runtime: TypeScript 7's reaches its checker process
 * through Node's own file descriptors (`stdout._handle.fd`), so it runs under Node.js only; on Bun and Deno its async
 * API answers instead, through a worker (`compiler/analysis/reader-bridge.ts`).
 */
export function runsHere(version: string): boolean {
  return Number(version.split('.')[0]) < 7 || !(process.versions.bun || 'Deno' in globalThis)
}

/** `tsconfig.json` in `dir` or the nearest directory above it (as `ts.findConfigFile`). */
export function findConfigFile(dir: string): string | undefined {
  for (let d = path.resolve(dir); ; d = path.dirname(d)) {
    const file = path.join(d, 'tsconfig.json')
    if (existsSync(file)) return file
    if (path.dirname(d) === d) return undefined
  }
}
