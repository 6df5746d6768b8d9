/**
 * Internal: the source of a bundle's entry module — every controller module imported statically, the signature
 * manifest as a literal, the module `routeless build` generates from it (validators and serializers as code: a Worker
 * compiles nothing from strings), `createWorkerApp` called once at start-up, and `export default { fetch }`.
 * @module
 */
import type { Manifest } from '../../runtime/contract/manifest.ts'
import { returnsOnly } from '../../runtime/contract/responses.ts'
import { FORMATS, formatExport } from '../../runtime/contract/formats.ts'
import { createSource } from '../codegen/generate.ts'
import { CODE_ID, manifestKey } from '../../runtime/handlers/app-module.ts'

/** One controller module the entry imports. */
export interface EntryModule {
  /** Its path below the prefix (`''`, `users`, `v3/status`). */
  path: string
  /** Absolute path of its file (what the entry imports). */
  abs: string
  /** Its file as the manifest names it (relative to the project, `/`-separated). */
  file: string
  /** Its prefix, as given. */
  root: string
}

export interface EntryOptions {
  modules: EntryModule[]
  manifest: Manifest
  /** Absolute path of `routeless.config.ts`, whose app options (and context) the app is made with. */
  config?: string
  /** App options given as data (tests and `--` flags), over the config's. */
  options?: Record<string, unknown>
  /**
   * The parts of the core the tree and the config need (`runtime/app/worker-app.ts`'s `WorkerParts`), imported by name: the
   * table's assembly's (`runtime/routing/table-parts.ts`), the wrappers and the 404's hint (`runtime/app/core-services.ts`).
   */
  parts?: EntryPart[]
  /** The code of the handlers' functions, by shape (`compiler/codegen/handler-source.ts`). */
  handlers?: Record<string, string>
}

/** A part an entry may pass, and the names `routeless/worker` exports it under. */
const PART_EXPORTS = {
  readSignature: ['readSignature'],
  compileBinder: ['compileBinder'],
  surveyTable: ['surveyTable'],
  dateReviver: ['dateReviver'],
  accessLog: ['accessLog'],
  cors: ['cors', 'originCheck'],
  notFoundHint: ['notFoundHint'],
  answers: ['statusSerializers'],
  readBody: ['readBody'],
  nest: ['nest'],
  streamReply: ['streamReply', 'streamParts'],
  isAsyncIterable: ['isAsyncIterable'],
  lastEventId: ['lastEventId'],
  sockets: ['hostSockets'],
} as const

/** How a part is given to `createWorkerApp` when not by its own name. */
const PART_GIVEN: Partial<Record<EntryPart, string>> = {
  cors: 'cors: { cors, originCheck }',
  answers: 'answers: statusSerializers',
  sockets: 'sockets: hostSockets',
  streamReply: 'streamReply, streamParts',
}

export type EntryPart = keyof typeof PART_EXPORTS

/** The parts a handler's code calls as `rt.<name>(…)` (`compiler/codegen/handler-code.ts`). */
const HANDLER_CALLS = ['nest', 'streamReply', 'isAsyncIterable', 'lastEventId'] as const satisfies EntryPart[]

/** The entry module's source text. */
export function entrySource({
  modules,
  manifest: whole,
  config,
  options,
  parts: asked = [],
  handlers,
}: EntryOptions): string {
  const manifest = servedPart(whole)
  const create = createSource(manifest, handlers)
  const formats = formatsCalled(create)
  // And what only some handlers' code calls (`runtime/handlers/handlers.ts`'s `LifecycleParts`), where theirs does.
  const parts = [...asked, ...HANDLER_CALLS.filter((name) => create.includes(`rt.${name}(`) && !asked.includes(name))]
  const named: string[] = [
    'appOptionsFromConfig',
    'createWorkerApp',
    ...parts.flatMap((p) => PART_EXPORTS[p]),
    ...formats.map(formatExport),
  ]
  const given: string[] = parts.map((p) => PART_GIVEN[p] ?? p)
  // The run-time helpers the validators' code calls (`compiler/codegen/validator-code.ts` writes `rt.equal`, `rt.ucs2length`).
  const helpers = (['equal', 'ucs2length'] as const).filter((name) => create.includes(`rt.${name}`))
  named.push(...helpers)
  given.push(...helpers)
  const lines = [`import { ${named.join(', ')} } from 'routeless/worker'`]
  modules.forEach((m, i) => lines.push(`import * as m${i} from ${JSON.stringify(m.abs)}`))
  if (config) lines.push(`import config from ${JSON.stringify(config)}`)
  const list = modules.map(
    (m, i) =>
      `  { path: ${JSON.stringify(m.path)}, file: ${JSON.stringify(m.file)}, root: ${JSON.stringify(m.root)}, exports: m${i} },`,
  )
  lines.push(
    '',
    `const manifest = JSON.parse(${JSON.stringify(JSON.stringify(manifest))})`,
    `const options = ${config ? 'await appOptionsFromConfig(config)' : '{}'}`,
    `const compiled = {\n  routeless: ${JSON.stringify(CODE_ID)},\n  manifest: ${JSON.stringify(manifestKey(manifest))},\n` +
      `  create(rt) {\n${create}\n  },\n}`,
    `const formats = { ${formats.map((name) => `${JSON.stringify(name)}: ${formatExport(name)}`).join(', ')} }`,
    `export const app = await createWorkerApp([\n${list.join('\n')}\n], ` +
      `{ ...options, ...${JSON.stringify(options ?? {})}, manifest }, compiled, { ${['formats', ...given].join(', ')} })`,
    '',
    '/** Workers, `deno serve` and Bun call this: `env` becomes `this.env`, with `ctx.waitUntil` as `this.env.waitUntil`. */',
    'export default { fetch: (request, env, ctx) => app.fetch(request, env, ctx) }',
    '',
  )
  return lines.join('\n')
}

/** The format checks generated code calls (`formats.int32`, `formats["date-time"]`), by name. */
function formatsCalled(source: string): string[] {
  const names = new Set<string>()
  for (const m of source.matchAll(/\bformats(?:\.([\w$]+)|\["([^"]+)"\])/g)) names.add((m[1] ?? m[2])!)
  return [...names].filter((name) => Object.hasOwn(FORMATS, name)).sort()
}

/**
 * What of the manifest a Worker reads: each handler's types and warnings, each file's module path, the named types.
 * The files' hashes and imports (`routeless build` checks them, a bundle never does), the JSDoc (OpenAPI's) and the
 * analyser's name stay out of the bundle, and so do the answers of a handler that declares only its return type's 200
 * (`returnsOnly`: written by the return type's serializer either way); the generated module's key is the key of this
 * part.
 */
function servedPart(manifest: Manifest): Manifest {
  const files: Manifest['files'] = {}
  for (const [file, { module }] of Object.entries(manifest.files)) files[file] = { module } as Manifest['files'][string]
  const handlers: Manifest['handlers'] = {}
  for (const [key, { doc: _doc, ...types }] of Object.entries(manifest.handlers)) {
    if (types.responses && returnsOnly(types)) delete types.responses
    handlers[key] = types
  }
  return { format: manifest.format, typescript: manifest.typescript, files, handlers, $defs: manifest.$defs }
}
