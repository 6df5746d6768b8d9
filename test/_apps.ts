/**
 * Builds applications from the fixture controller trees in test/fixtures/<scenario>. A factory carries what it is
 * made of (`fixture`: the trees and the options), so another runtime can build the same application in its own
 * process (`test/_runtimes.ts`).
 */
import { mkdtempSync } from 'node:fs'
import { tmpdir } from 'node:os'
import path from 'node:path'
import { fileURLToPath } from 'node:url'
import { createApp, type AppOptions, type Application } from 'routeless'
import { readManifest } from '../packages/routeless/src/runtime/contract/manifest-file.ts'
import { tableCode } from '../packages/routeless/src/compiler/codegen/handler-source.ts'
import { writeAppModule } from '../packages/routeless/src/compiler/codegen/write.ts'

export const fixture = (name: string) => fileURLToPath(new URL(`./fixtures/${name}`, import.meta.url))

/** Errors are expected in these suites: keep 500 logs out of the test output, but count them. */
export const logged: unknown[] = []
const quiet = { error: (_m: string, e?: unknown) => void logged.push(e), warn: () => {} }

/** What a fixture application is made of: absolute prefixes and the options the test gave (without its logger). */
export interface FixtureSpec {
  prefixes: string[]
  options: AppOptions
}

export type AppFactory = (() => Promise<Application>) & { fixture?: FixtureSpec }

export function fixtureApp(name: string | string[], options: AppOptions = {}): AppFactory {
  const prefixes = (Array.isArray(name) ? name : [name]).map(fixture)
  const make = COMPILED
    ? () => compiledApp(prefixes, options)
    : () => createApp(prefixes, { logger: quiet, ...options })
  return Object.assign(make, { fixture: { prefixes, options } })
}

/**
 * `ROUTELESS_COMPILED=generated` (the vitest project `compiled`, vitest.config.ts): fixture apps serve with the
 * module `routeless build` generates (`.routeless/app.mjs`), not with its source evaluated at start-up.
 */
const COMPILED = process.env.ROUTELESS_COMPILED === 'generated'

/** The fixture app served with its generated module: the manifest and `app.mjs` written to a directory of its own. */
async function compiledApp(prefixes: string[], options: AppOptions): Promise<Application> {
  if (options.manifest !== undefined || options.types === 'off')
    return createApp(prefixes, { logger: quiet, ...options })
  const manifest = path.join(mkdtempSync(path.join(tmpdir(), 'routeless-compiled-')), 'manifest.json')
  const first = await createApp(prefixes, { logger: quiet, ...options, manifest }) // analyses and writes the manifest
  const written = readManifest(manifest)
  if (written) writeAppModule(manifest, written, process.cwd(), tableCode(first.table))
  const app = await createApp(prefixes, { logger: quiet, ...options, manifest })
  if (written && app.table.validators !== 'generated')
    throw new Error(`${prefixes.join(', ')}: served with ${app.table.validators} validators, not the generated module`)
  // Every handler's function from the module too (with `checkReturns` their code differs: evaluated at start-up).
  const evaluated = [...app.table.handlers()].filter((h) => app.pipelineOf(h)?.origin !== 'generated')
  if (written && !options.checkReturns && evaluated.length)
    throw new Error(`${prefixes.join(', ')}: ${evaluated[0]!.className}.${evaluated[0]!.name}'s function was evaluated`)
  return app
}
