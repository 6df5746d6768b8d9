/**
 * The signature manifest on disk: read, written atomically, and checked against the files it describes (by content
 * hash). Node-only; the manifest's shape and the lookups a bundle needs are `manifest.ts`, which reads no file.
 * @module
 */
import { createHash } from 'node:crypto'
import { mkdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs'
import path from 'node:path'
import { MANIFEST_FORMAT, type Manifest, type ManifestFile } from './manifest.ts'

export function sha256(file: string): string {
  return createHash('sha256').update(readFileSync(file)).digest('hex')
}

/** `sha256`, each file read once: a type file that a thousand modules import is hashed once per start. */
export function fileHashes(): (file: string) => string {
  const known = new Map<string, string>()
  return (file) => {
    let hash = known.get(file)
    if (hash === undefined) known.set(file, (hash = sha256(file)))
    return hash
  }
}

/** The manifest at `file`, or undefined when there is none (or it is of another format). */
export function readManifest(file: string): Manifest | undefined {
  try {
    const m = JSON.parse(readFileSync(file, 'utf8')) as Manifest
    return m && m.format === MANIFEST_FORMAT && m.files && m.handlers ? m : undefined
  } catch {
    return undefined
  }
}

/** Writes atomically (a temporary file renamed over the old one); a read-only directory is not an error. */
export function writeManifest(file: string, manifest: Manifest): boolean {
  try {
    mkdirSync(path.dirname(file), { recursive: true })
    const tmp = `${file}.${process.pid}.${Date.now()}.tmp`
    writeFileSync(tmp, JSON.stringify(manifest))
    renameSync(tmp, file)
    return true
  } catch {
    return false
  }
}

/** True when `entry` still describes `file` and every local file it imports (paths relative to `base`). */
export function isFresh(entry: ManifestFile | undefined, file: string, base: string, hashOf = sha256): boolean {
  if (!entry) return false
  try {
    if (hashOf(file) !== entry.sha256) return false
    for (const [dep, hash] of Object.entries(entry.deps)) if (hashOf(path.resolve(base, dep)) !== hash) return false
    return true
  } catch {
    return false
  }
}
