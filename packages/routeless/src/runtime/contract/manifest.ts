/**
 * The signature manifest: what the TypeScript checker learned about each handler's parameters (names, optionality,
 * JSON Schema of every positional and keyword parameter, the return type), cached on disk keyed by file content so
 * that a warm start costs no type-checking, and written ahead of time by `routeless build` so that production needs
 * neither `typescript` nor the sources. This module never imports `typescript`; `analyze.ts` does, lazily. It reads no
 * file either (a Worker carries it): reading, writing and hashing files is `manifest-file.ts`.
 * @module
 */
import { referencedTypes, refsRenamed } from './schema-refs.ts'
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
  /**
   * Every answer the return type declares, one entry per member of its union (`Created<Glossary> | NotFound<Problem>`);
   * a plain `T` is one `{status: 200, schema: T}`. Absent in manifests written before the response contract: readers
   * then fall back to `returns` as a 200. The framework's own answers (400, 401, 413 …) are not listed here: the
   * OpenAPI writer adds them from what the handler does (reads a body, is guarded, is rate limited).
   */
  responses?: ResponseDecl[]
  /** A streamed answer (`AsyncIterable<Sse<E>>`, `AsyncIterable<T>` as JSON lines): its item schema. */
  stream?: StreamDecl
  /** A `WEBSOCKET` handler's messages (`SocketHandlers<In, Out>`): what it receives and what it sends. */
  socket?: SocketDecl
  /** The method's JSDoc text. */
  doc?: string
  /** Parameters whose type could not become a schema (they are bound as before: raw strings). */
  warnings?: string[]
}

/** One answer a handler's return type declares: the seam between the type analysis and its writers. */
export interface ResponseDecl {
  /** The HTTP status (200 for a plain `T`). */
  status: number
  /** The body's schema; `null` for an answer without a body (204, 205, 304, a redirect's). */
  schema: JsonSchema | null
  /** The body's media type; `application/json` when absent. */
  mediaType?: string
  /** Headers the type promises (`Location`, `Retry-After`), by their canonical name. */
  headers?: Record<string, { schema: JsonSchema; required: boolean }>
  /** The JSDoc of the member, when it has one. */
  description?: string
}

/** A streamed answer's items. */
export interface StreamDecl {
  /** `text/event-stream` for `Sse<E>` items; `application/jsonl` for plain items. */
  mediaType: 'text/event-stream' | 'application/jsonl'
  /**
   * The schema of one item: for server-sent events, of one event object `{data, event?, id?, retry?}` (what a line of
   * `application/jsonl` carries), an `anyOf` of them where a union names events (`Sse<A, 'a'> | Sse<B, 'b'>`: `event`
   * a `const`). `runtime/contract/stream-item.ts` gives each event's data schema and the OpenAPI 3.2 `itemSchema`.
   */
  item: JsonSchema
}

/** A WebSocket handler's messages, each a JSON text frame. */
export interface SocketDecl {
  receives: JsonSchema | null
  sends: JsonSchema | null
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

/** Where `routeless build` writes the manifest, relative to the project (`/` is a separator on every platform). */
export const MANIFEST_PATH = '.routeless/manifest.json'

/** The key a schema's validator or serializer is found by (in the generated module too): its JSON text. */
export function schemaKey(schema: JsonSchema): string {
  return JSON.stringify(schema)
}

export function handlerKey(file: string, className: string, method: string): string {
  return `${file}#${className}.${method}`
}

/**
 * The part of `manifest` that `files` (keys of its `files`) use: their entries and handlers, every named type kept (a
 * validator's code holds only the types it refers to). A manifest is the project's cache: it also describes the
 * trees other apps, tests or earlier starts read from the same directory, whose validators an app need not make.
 */
export function servedPart(manifest: Manifest, files: ReadonlySet<string>): Manifest {
  const handlers: Record<string, HandlerTypes> = {}
  let all = true
  for (const [key, types] of Object.entries(manifest.handlers)) {
    if (files.has(key.slice(0, key.indexOf('#')))) handlers[key] = types
    else all = false
  }
  if (all) return manifest
  const described = Object.entries(manifest.files).filter(([file]) => files.has(file))
  return { ...manifest, files: Object.fromEntries(described), handlers }
}

/** The manifest file that describes module `moduleKey` (for module maps, which have no files), when exactly one does. */
export function fileOfModule(manifest: Manifest, moduleKey: string): string | undefined {
  const found = Object.entries(manifest.files).filter(([, f]) => f.module === moduleKey)
  return found.length === 1 ? found[0]![0] : undefined
}

/**
 * `old` with the files `fresh` describes replaced by `fresh`'s entries (other files' entries are kept). A named type of
 * `fresh` whose name the kept entries of `old` use for another schema (two files each with their own `Problem`,
 * analysed apart) is renamed as one analysis would name it (`Problem2`), with `fresh`'s references to it, so neither
 * file's handlers are checked against the other's type.
 */
export function mergeManifests(old: Manifest | undefined, fresh: Manifest): Manifest {
  if (!old || old.typescript !== fresh.typescript) return fresh
  const handlers: Record<string, HandlerTypes> = {}
  for (const [key, value] of Object.entries(old.handlers))
    if (!(key.slice(0, key.indexOf('#')) in fresh.files)) handlers[key] = value
  const kept = new Set(referencedTypes(Object.values(handlers), old.$defs))
  const renamed = new Map<string, string>()
  const taken = new Set([...Object.keys(old.$defs), ...Object.keys(fresh.$defs)])
  for (const [name, schema] of Object.entries(fresh.$defs)) {
    if (!kept.has(name) || schemaKey(old.$defs[name]!) === schemaKey(schema)) continue
    let other = name
    for (let i = 2; taken.has(other); i++) other = `${name}${i}`
    taken.add(other)
    renamed.set(name, other)
  }
  const own = renamed.size === 0 ? fresh : refsRenamed(fresh, renamed)
  const defs = { ...old.$defs }
  for (const [name, schema] of Object.entries(own.$defs)) defs[renamed.get(name) ?? name] = schema
  return {
    ...own,
    files: { ...old.files, ...own.files },
    handlers: { ...handlers, ...own.handlers },
    $defs: defs,
  }
}
