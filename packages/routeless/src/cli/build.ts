/**
 * `routeless build`: the manifest and the generated module beside it (`.routeless/app.mjs`), the controllers compiled
 * for node, or, with `--target=worker`, one Worker module.
 * @module
 */
import { rmSync } from 'node:fs'
import path from 'node:path'
import { collectSources } from '../runtime/app/options.ts'
import type { ModuleSource } from '../runtime/base/module-source.ts'
import type { Manifest } from '../runtime/contract/manifest.ts'
import { writeManifest } from '../runtime/contract/manifest-file.ts'
import type { AuthSpec } from '../runtime/guards/auth.ts'
import type { RoutelessConfig } from './config.ts'
import { reportError, type CliIO } from './io.ts'

/**
 * `routeless build`: analyses every controller afresh and writes the manifest, and beside it the generated module
 * (`.routeless/app.mjs`: each handler's function, its validators and serializers as code). The controllers are
 * imported to learn each handler's guards (with the config's `auth`); a tree that does not load in node gets the
 * module without the functions (start-up writes them). `strict`: a parameter bound unchecked (a type no schema can
 * say) fails the build instead of warning — for CI.
 */
export async function buildCommand(
  prefix: string[],
  out: string,
  io: CliIO,
  strict = false,
  auth?: AuthSpec,
): Promise<number> {
  const cwd = process.cwd()
  const started = performance.now()
  try {
    const { analyze, loadTypeScript } = await import('../compiler/analysis/analyze.ts')
    const ts = await loadTypeScript(cwd)
    if (!ts) {
      io.stderr(
        "routeless: build reads the handlers' types with the TypeScript compiler: install typescript (npm i -D typescript)",
      )
      return 1
    }
    const sources = collectSources(prefix, cwd).filter((s) => !s.file.startsWith('<'))
    const manifest = analyze(
      ts,
      sources.map((s) => ({ file: s.file, module: s.parts.join('/') })),
      cwd,
    )
    const warnings = Object.entries(manifest.handlers).flatMap(([key, types]) =>
      (types.warnings ?? []).map((w) => `${key.replace('#', ': ')}: ${w}`),
    )
    for (const w of warnings) io.stderr(`routeless: ${strict ? 'error' : 'warning'}: ${w}`)
    if (strict && warnings.length > 0) {
      io.stderr(
        `routeless: build --strict: ${warnings.length} parameter${warnings.length > 1 ? 's' : ''} cannot be checked; ${out} not written`,
      )
      return 1
    }
    const file = path.resolve(cwd, out)
    if (!writeManifest(file, manifest)) {
      io.stderr(`routeless: cannot write ${out}`)
      return 1
    }
    // Beside it, the handlers as code (`runtime/handlers/app-module.ts`): what start-up would otherwise generate in memory.
    const { writeAppModule } = await import('../compiler/codegen/write.ts')
    const code = writeAppModule(file, manifest, cwd, await handlerCode(sources, manifest, cwd, auth, io))
    const handlers = Object.keys(manifest.handlers).length
    const files = Object.keys(manifest.files).length
    const ms = Math.round(performance.now() - started)
    const wrote = `${path.relative(cwd, file)} and ${path.relative(cwd, code)}`
    io.stdout(
      `routeless: wrote ${wrote}: ${handlers} handlers from ${files} files, TypeScript ${ts.version} (${ms} ms)`,
    )
    return 0
  } catch (error) {
    reportError(io, error)
    return 1
  }
}

/** The code of the tree's handler functions (`runtime/handlers/handlers.ts`), or none when the tree does not load here. */
async function handlerCode(
  sources: ModuleSource[],
  manifest: Manifest,
  cwd: string,
  auth: AuthSpec | undefined,
  io: CliIO,
): Promise<Record<string, string>> {
  try {
    const { nodeStripsTypes, registerTypeScript } = await import('../runtime/routing/ts-loader.ts')
    if (!nodeStripsTypes()) await registerTypeScript()
    const { buildRouteTable } = await import('../runtime/routing/route-table.ts')
    const { tableCode } = await import('../compiler/codegen/handler-source.ts')
    const { ajvValidators } = await import('../compiler/codegen/ajv.ts')
    return tableCode(
      await buildRouteTable(sources, { cwd, types: 'manifest', manifest, auth, validators: ajvValidators }),
    )
  } catch (error) {
    const why = error instanceof Error ? error.message : String(error)
    io.stderr(`routeless: warning: the handlers' functions are written at start-up (the tree did not load: ${why})`)
    return {}
  }
}

/**
 * After the manifest, `routeless build` compiles the controllers and the config to JavaScript for node
 * (`compiler/bundle/node-build.ts`): `routeless` then serves them without loading tsx while their files are unchanged.
 */
export async function nodeBuildCommand(
  prefix: string[],
  config: string | undefined,
  settings: RoutelessConfig,
  io: CliIO,
): Promise<number> {
  const cwd = process.cwd()
  const started = performance.now()
  try {
    const { buildNode } = await import('../compiler/bundle/node-build.ts')
    const built = await buildNode({
      cwd,
      sources: collectSources(prefix, cwd),
      prefix: settings.prefix?.length ? [settings.prefix].flat() : ['controllers'],
      config,
      watch: settings.watch,
    })
    const ms = Math.round(performance.now() - started)
    if ('skipped' in built) io.stdout(`routeless: not compiled for node (${built.skipped}): node serves the sources`)
    else {
      const files = `${built.files} file${built.files === 1 ? '' : 's'}`
      io.stdout(`routeless: compiled ${files} to ${path.relative(cwd, built.dir)}/ (${ms} ms)`)
    }
    return 0
  } catch (error) {
    reportError(io, error)
    return 1
  }
}

/** Where `routeless build --target=worker` writes the Worker by default. */
export const WORKER_OUT = 'dist/worker.js'

/** `routeless build --target=worker`: the tree bundled into one module (`compiler/bundle/worker.ts`). */
export async function workerCommand(
  prefix: string[],
  out: string,
  config: string | undefined,
  io: CliIO,
  strict: boolean,
  settings: RoutelessConfig,
): Promise<number> {
  const cwd = process.cwd()
  const started = performance.now()
  try {
    const { buildWorker } = await import('../compiler/bundle/worker.ts')
    const built = await buildWorker({ prefixes: prefix, out, cwd, config, settings })
    for (const w of built.warnings) io.stderr(`routeless: ${strict ? 'error' : 'warning'}: ${w}`)
    if (strict && built.warnings.length > 0) {
      rmSync(built.file, { force: true })
      io.stderr(`routeless: build --strict: ${built.warnings.length} parameters cannot be checked; ${out} not written`)
      return 1
    }
    const size = `${Math.round(built.bytes / 1024)} KiB (${Math.round(performance.now() - started)} ms)`
    io.stdout(
      `routeless: wrote ${path.relative(cwd, built.file)}: ${built.handlers} handlers from ${built.modules} modules, ${size}`,
    )
    return 0
  } catch (error) {
    reportError(io, error)
    return 1
  }
}
