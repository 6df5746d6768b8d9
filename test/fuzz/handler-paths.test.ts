/**
 * The three ways a handler's types are checked must answer every request alike, byte for byte: the module `routeless
 * build` generates, the same source evaluated at start-up, and Ajv compiling the schemas (the reference). Requests are
 * generated from each app's own handlers (test/fixtures/typed, and test/fuzz/app: tuples, tagged unions, bounded
 * integers, records, a nullable Date, a File or a text) with the shapes a fuzzer found: files where a form nests fields,
 * lists given field names, numbers beyond a double, a leading `?`, keys aimed at prototypes. No answer is a 5xx, none
 * logs an error, no prototype gains a property.
 */
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import path from 'node:path'
import { fileURLToPath } from 'node:url'
import fc from 'fast-check'
import { afterAll, afterEach, describe, expect, it } from 'vitest'
import { Application, buildRouteTable, createApp } from 'routeless'
import { collectSources } from '../../packages/routeless/src/runtime/app/options.ts'
import { readManifest } from '../../packages/routeless/src/runtime/contract/manifest-file.ts'
import { tableCode } from '../../packages/routeless/src/compiler/codegen/handler-source.ts'
import { writeAppModule } from '../../packages/routeless/src/compiler/codegen/write.ts'
import { fixture } from '../_apps.ts'
import { answerOf } from '../_differential.ts'
import { budget, params, polluted } from './_fuzz.ts'
import { requestsFor } from './_requests.ts'

const dirs: string[] = []
afterAll(() => {
  for (const d of dirs) rmSync(d, { recursive: true, force: true })
})
afterEach(() => expect(polluted()).toBeUndefined())

const logged: string[] = []
const logger = { error: (message: string, e?: unknown) => void logged.push(`${message} ${e}`), warn: () => {} }

/** The three apps of `prefix`: generated, evaluated, Ajv. */
async function threeApps(prefix: string): Promise<Record<'generated' | 'evaluated' | 'ajv', Application>> {
  const dir = mkdtempSync(path.join(tmpdir(), 'routeless-fuzz-'))
  dirs.push(dir)
  const manifest = path.join(dir, 'manifest.json')
  const evaluated = await createApp([prefix], { logger, manifest })
  writeAppModule(manifest, readManifest(manifest)!, process.cwd(), tableCode(evaluated.table))
  const generated = await createApp([prefix], { logger, manifest })
  const ajv = new Application(await buildRouteTable(collectSources([prefix], process.cwd()), { manifest }), { logger })
  expect([generated.table.validators, evaluated.table.validators, ajv.table.validators]).toEqual([
    'generated',
    'evaluated',
    'ajv',
  ])
  return { generated, evaluated, ajv }
}

describe('the generated, evaluated and reference paths', () => {
  for (const [name, prefix, count] of [
    ['typed', fixture('typed'), 200],
    ['shapes', fileURLToPath(new URL('./app', import.meta.url)), 150],
  ] as const) {
    it(
      `answer generated requests alike, never with a 5xx: ${name}`,
      async () => {
        const apps = await threeApps(prefix)
        await fc.assert(
          fc.asyncProperty(requestsFor(apps.generated), async ({ path: p, init }) => {
            logged.length = 0
            const generated = await answerOf(apps.generated, p, init)
            expect(Number(generated.slice(0, 3)), generated).toBeLessThan(500)
            expect(await answerOf(apps.evaluated, p, init)).toBe(generated)
            expect(await answerOf(apps.ajv, p, init)).toBe(generated)
            expect(logged).toEqual([])
            expect(polluted()).toBeUndefined()
          }),
          params(count),
        )
      },
      budget(count, 60_000),
    )
  }
})
