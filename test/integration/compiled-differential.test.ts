/**
 * The same answers on both paths, byte for byte: requests generated from each fixture's handler types (valid,
 * invalid and edge values of every parameter kind; test/_differential.ts) sent to the app served with the module
 * `routeless build` generated, with the same source evaluated at start-up, and with Ajv compiling at start-up.
 */
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import path from 'node:path'
import { afterAll, describe, expect, it } from 'vitest'
import { Application, buildRouteTable, createApp } from 'routeless'
import { collectSources } from '../../packages/routeless/src/runtime/app/options.ts'
import { readManifest } from '../../packages/routeless/src/runtime/contract/manifest-file.ts'
import { tableCode } from '../../packages/routeless/src/compiler/codegen/handler-source.ts'
import { writeAppModule } from '../../packages/routeless/src/compiler/codegen/write.ts'
import { fixture } from '../_apps.ts'
import { differences, requestsFor } from '../_differential.ts'

const dirs: string[] = []
afterAll(() => {
  for (const d of dirs) rmSync(d, { recursive: true, force: true })
})
const quiet = { error: () => {}, warn: () => {} }

describe('the generated module and the source evaluated at start-up', () => {
  for (const name of ['typed', 'args', 'schemas', 'returns']) {
    it(`answer alike: ${name}`, async () => {
      const dir = mkdtempSync(path.join(tmpdir(), 'routeless-differential-'))
      dirs.push(dir)
      const manifest = path.join(dir, 'manifest.json')
      const prefixes = [fixture(name)]
      const evaluated = await createApp(prefixes, { logger: quiet, manifest })
      writeAppModule(manifest, readManifest(manifest)!, process.cwd(), tableCode(evaluated.table))
      const generated = await createApp(prefixes, { logger: quiet, manifest })
      expect([evaluated.table.validators, generated.table.validators]).toEqual(['evaluated', 'generated'])
      // Each handler's function: written ahead of time in one, evaluated at start-up in the other.
      const origins = (app: Application) => new Set([...app.table.handlers()].map((h) => app.pipelineOf(h)!.origin))
      expect([origins(evaluated), origins(generated)]).toEqual([new Set(['evaluated']), new Set(['generated'])])
      const ajv = new Application(await buildRouteTable(collectSources(prefixes, process.cwd()), { manifest }), {
        logger: quiet,
      })
      expect(ajv.table.validators).toBe('ajv')
      const requests = requestsFor(generated)
      expect(requests.length).toBeGreaterThan(10)
      expect(await differences(generated, evaluated, requests)).toEqual([])
      expect(await differences(generated, ajv, requests)).toEqual([])
    }, 120_000) // three apps analysed and some 1,600 requests: a minute on a loaded two-core machine
  }
})
