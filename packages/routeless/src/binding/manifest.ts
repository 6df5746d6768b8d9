/**
 * The signature manifest: what the TypeScript checker learned about each handler's parameters (names, optionality,
 * JSON Schema of every positional and keyword parameter, the return type), cached on disk keyed by file content so
 * that a warm start costs no type-checking, and written ahead of time by `routeless build` so that production needs
 * neither `typescript` nor the sources. This module never imports `typescript`; `analyze.ts` does, lazily.
 * @module
 */
import { createHash } from 'node:crypto'
import { mkdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs'
import path from 'node:path'

export type JsonSchema = Record<string, any>

/**
 * Marks a schema made from a JavaScript class: `Date` (an ISO 8601 string, given to the handler as a `Date`: see
 * `dates.ts`) or `File` (a multipart part).
 */
export const JS_MARK = 'x-js'

/** Marks a value sent as JSON text (the JSDoc tag `@json`); the published OpenAPI says it with the body's `encoding`. */
export const JSON_MARK = 'x-json'

export const MANIFEST_FORMAT = 2

/** One positional parameter. */
export interface PositionalParam {
  name: string
  schema: JsonSchema
  /** `id?: string` or `id = ''`. */
  optional: boolean
  /** `...parts: string[]` (its schema is the array's). */
  rest: boolean
}

/** What a handler's signature says, from its TypeScript (or JSDoc) types. */
export interface HandlerTypes {
  positional: PositionalParam[]
  /** The keyword parameter (a last `{…}` or `kwargs` parameter): its object schema, or `{}` when untyped. */
  kwargs: { schema: JsonSchema; name?: string } | null
  /** The awaited return type's schema, when it is data (not a `Response`, bytes or a stream). */
  returns: JsonSchema | null
  /** The method's JSDoc text. */
  doc?: string
  /** Parameters whose type could not become a schema (they are bound as before: raw strings). */
  warnings?: string[]
}

export interface ManifestFile {
  /** The module's path below its prefix (`v3/glossaries`, `''` for the root): how a bundle's module map finds it. */
  module: string
  sha256: string
  /** Local files the module imports (its types may come from them), with their hashes. */
  deps: Record<string, string>
}

export interface Manifest {
  format: number
  typescript: string
  /** Which analyser wrote it (`analyzerId()`): another one's manifest is read again where `typescript` is at hand. */
  analyzer?: string
  /** By file, relative to the manifest's base directory. */
  files: Record<string, ManifestFile>
  /** By `<file>#<Class>.<method>`. */
  handlers: Record<string, HandlerTypes>
  /** Named types, referenced as `#/$defs/Name`. */
  $defs: Record<string, JsonSchema>
}

export const MANIFEST_PATH = path.join('.routeless', 'manifest.json')

/** The key a schema's validator or serializer is found by (in the generated module too): its JSON text. */
export function schemaKey(schema: JsonSchema): string {
  return JSON.stringify(schema)
}

export function handlerKey(file: string, className: string, method: string): string {
  return `${file}#${className}.${method}`
}

/** The manifest file that describes module `moduleKey` (for module maps, which have no files), when exactly one does. */
export function fileOfModule(manifest: Manifest, moduleKey: string): string | undefined {
  const found = Object.entries(manifest.files).filter(([, f]) => f.module === moduleKey)
  return found.length === 1 ? found[0]![0] : undefined
}

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

/** `old` with the files `fresh` describes replaced by `fresh`'s entries (other files' entries are kept). */
export function mergeManifests(old: Manifest | undefined, fresh: Manifest): Manifest {
  if (!old || old.typescript !== fresh.typescript) return fresh
  const handlers: Record<string, HandlerTypes> = {}
  for (const [key, value] of Object.entries(old.handlers))
    if (!(key.slice(0, key.indexOf('#')) in fresh.files)) handlers[key] = value
  return {
    ...fresh,
    files: { ...old.files, ...fresh.files },
    handlers: { ...handlers, ...fresh.handlers },
    $defs: { ...old.$defs, ...fresh.$defs },
  }
}
