/**
 * Internal: the source of a bundle's entry module — every controller module imported statically, the signature
 * manifest as a literal, the serializers of the handlers' return types as code (generated here: a Worker compiles
 * nothing from strings), `createWorkerApp` called once at start-up, and `export default { fetch }`.
 * @module
 */
import type { Manifest } from '../binding/manifest.ts'
import { serializerSource } from '../binding/serializer.ts'
import { FACTORY_PARAMS } from '../binding/serializer-runtime.ts'

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
}

/** The entry module's source text. */
export function entrySource({ modules, manifest, config, options }: EntryOptions): string {
  const lines = ["import { appOptionsFromConfig, createWorkerApp } from 'routeless/worker'"]
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
    `const serializers = {\n${serializers(manifest).join('\n')}\n}`,
    `export const app = await createWorkerApp([\n${list.join('\n')}\n], ` +
      `{ ...options, ...${JSON.stringify(options ?? {})}, manifest }, { serializers })`,
    '',
    '/** Workers, `deno serve` and Bun call this: `env` becomes `this.env`, with `ctx.waitUntil` as `this.env.waitUntil`. */',
    'export default { fetch: (request, env, ctx) => app.fetch(request, env, ctx) }',
    '',
  )
  return lines.join('\n')
}

/** Each return type's serializer factory, keyed by its schema's JSON text (as `createWorkerApp` looks them up). */
function serializers(manifest: Manifest): string[] {
  const seen = new Set<string>()
  const out: string[] = []
  for (const types of Object.values(manifest.handlers)) {
    if (!types.returns) continue
    const key = JSON.stringify(types.returns)
    if (seen.has(key)) continue
    seen.add(key)
    const source = serializerSource(types.returns, manifest.$defs)
    if (source !== undefined)
      out.push(`  ${JSON.stringify(key)}: function (${FACTORY_PARAMS.join(', ')}) {\n${source}\n},`)
  }
  return out
}
