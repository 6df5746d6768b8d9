/**
 * `scripts/check-core.mjs` (run by `npm run lint`): a folder of the core imports only its own floor's folder or a lower
 * floor, every folder stands on a floor, request time imports nothing of build time (but through its seams, by
 * dynamic import), and no line of the core is over 140 characters.
 */
import { spawnSync } from 'node:child_process'
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import path from 'node:path'
import { fileURLToPath } from 'node:url'
import { afterAll, describe, expect, it } from 'vitest'
import { checkCore } from '../../scripts/check-core.mjs'

const SCRIPT = fileURLToPath(new URL('../../scripts/check-core.mjs', import.meta.url))
const run = (...args: string[]) => spawnSync(process.execPath, [SCRIPT, ...args], { encoding: 'utf8' })

const tmp = mkdtempSync(path.join(tmpdir(), 'check-core-'))
afterAll(() => rmSync(tmp, { recursive: true, force: true }))

/** A tree of `files` (path → text) in a fresh folder under the temp dir. */
function tree(name: string, files: Record<string, string>): string {
  const root = path.join(tmp, name)
  for (const [file, text] of Object.entries(files)) {
    mkdirSync(path.dirname(path.join(root, file)), { recursive: true })
    writeFileSync(path.join(root, file), text)
  }
  return root
}

describe('check-core', () => {
  it('passes on the real core', () => {
    const r = run()
    expect(r.stderr).toBe('')
    expect(r.status).toBe(0)
  })

  it('fails on an upward import, a sibling import, an unplaced folder and a long line, naming each', () => {
    const root = tree('bad', {
      'index.ts': "export { Application } from './runtime/app/application.ts'\n",
      'runtime/app/application.ts': "import { HttpError } from '../base/errors.ts'\nexport class Application {}\n",
      // upward: the ground floor reaching for the Application (a type import counts)
      'runtime/base/errors.ts': "import type { Application } from '../app/application.ts'\nexport class HttpError {}\n",
      // upward through a dynamic import
      'runtime/lifecycle/pipeline.ts': "export const load = () => import('../wrappers/cors.ts')\n",
      'runtime/wrappers/cors.ts': `export const long = '${'x'.repeat(140)}'\n`,
      // siblings on one floor
      'runtime/server/node/index.ts': "import { serve } from '../uws/index.ts'\nexport { serve }\n",
      'runtime/server/uws/index.ts': 'export const serve = 1\n',
      'elsewhere/thing.ts': "import { HttpError } from '../runtime/base/errors.ts'\n",
    })
    const problems = checkCore(root)
    expect(problems).toEqual(
      expect.arrayContaining([
        'runtime/base/errors.ts imports runtime/app/application.ts: runtime/app/ stands above runtime/base/',
        'runtime/lifecycle/pipeline.ts imports runtime/wrappers/cors.ts: runtime/wrappers/ stands above runtime/lifecycle/',
        'runtime/server/node/index.ts imports runtime/server/uws/index.ts: runtime/server/uws/ is a sibling of runtime/server/node/',
        'runtime/wrappers/cors.ts:1: 162 characters (at most 140)',
      ]),
    )
    expect(problems.find((p) => p.startsWith('elsewhere/'))).toMatch(/^elsewhere\/ is on no floor: add it to FLOORS/)
    expect(problems).toHaveLength(5)

    const r = run(root)
    expect(r.status).toBe(1)
    expect(r.stderr).toContain('runtime/base/errors.ts imports runtime/app/application.ts')
    expect(r.stderr).toContain('5 problem(s)')
  })

  it('passes a tree that imports only downward, with lines of 140 characters', () => {
    const root = tree('good', {
      'index.ts': "export * from './runtime/app/application.ts'\n",
      'runtime/app/application.ts':
        "import { HttpError } from '../base/errors.ts'\nimport { x } from './x.ts'\nexport { HttpError, x }\n",
      'runtime/app/x.ts': `export const x = '${'x'.repeat(140 - 19)}'\n`,
      'runtime/base/errors.ts': 'export class HttpError {}\n',
      'compiler/codegen/code.ts': "import { HttpError } from '../../runtime/base/errors.ts'\nexport { HttpError }\n",
    })
    expect(checkCore(root)).toEqual([])
    expect(run(root).status).toBe(0)
  })

  it('fails a runtime import of a compiler file, static or by type, and lets a seam reach it by dynamic import only', () => {
    const root = tree('halves', {
      'index.ts': "export * from './runtime/app/create-app.ts'\n",
      // the deliberate mistakes, each on a floor above the compiler's (so that only the two times are wrong): the
      // docs wrapper (request time) imports the handler code generator (build time), the OpenAPI writer a type of it
      'runtime/wrappers/docs.ts':
        "import { handlerSource } from '../../compiler/codegen/handler-code.ts'\nexport { handlerSource }\n",
      'runtime/documents/openapi.ts':
        "import type { Analysis } from '../../compiler/analysis/analyze.ts'\nexport type A = Analysis\n",
      // the seam: a dynamic import is allowed, a static one is not
      'runtime/app/build-tools.ts':
        "import { x } from '../../compiler/codegen/x.ts'\n" +
        "export const load = () => import('../../compiler/codegen/handler-code.ts')\nexport { x }\n",
      // what may: build time importing request time; a runtime file that is no seam may not even import dynamically
      'compiler/codegen/handler-code.ts':
        "import { table } from '../../runtime/routing/table.ts'\nexport const handlerSource = table\n",
      'runtime/routing/table.ts': 'export const table = 1\n',
      'compiler/codegen/x.ts': 'export const x = 1\n',
      'compiler/analysis/analyze.ts': 'export interface Analysis {}\n',
      'runtime/app/create-app.ts': "export const load = () => import('../../compiler/analysis/analyze.ts')\n",
    })
    const times = (file: string, target: string, folder: string) =>
      `${file} imports ${target}: request time imports build time (${folder}/)`
    expect(checkCore(root).sort()).toEqual([
      times('runtime/app/build-tools.ts', 'compiler/codegen/x.ts', 'compiler/codegen'),
      times('runtime/app/create-app.ts', 'compiler/analysis/analyze.ts', 'compiler/analysis'),
      times('runtime/documents/openapi.ts', 'compiler/analysis/analyze.ts', 'compiler/analysis'),
      times('runtime/wrappers/docs.ts', 'compiler/codegen/handler-code.ts', 'compiler/codegen'),
    ])
    const r = run(root)
    expect(r.status).toBe(1)
    expect(r.stderr).toContain(
      times('runtime/wrappers/docs.ts', 'compiler/codegen/handler-code.ts', 'compiler/codegen'),
    )
  })
})
