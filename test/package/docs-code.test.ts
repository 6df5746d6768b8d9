/**
 * The `runnable` code blocks of README.md and docs/*.md, run as a user would run them: every page's blocks written into
 * its own folder of a fresh project with the packed tarball installed (its `file=` blocks where they say, so a
 * runnable test finds the page's controllers), then each runnable block run with node from that folder. It must exit
 * 0: an assertion that fails, or an import the package does not export, fails the test. (That every block
 * type-checks is test/unit/docs-code.test.ts.)
 */
import path from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { blocksOf, folderOf, pages, writeBlocks } from '../_docs-code.ts'
import { installProject, run, type Project } from './_project.ts'

const blocks = pages().flatMap(blocksOf)
const runnable = blocks.filter((b) => b.runnable)
let project: Project

beforeAll(async () => {
  // typescript beside it, as the README installs it: the handlers' signatures are then enforced.
  project = await installProject({ type: 'module' }, ['typescript@5.9.3'])
  writeBlocks(project.dir, blocks)
}, 300_000)

afterAll(() => project?.remove())

describe('the runnable blocks of README.md and docs/, against the packed tarball', { timeout: 120_000 }, () => {
  it('has some', () => {
    expect(runnable.length).toBeGreaterThanOrEqual(2)
  })

  for (const block of runnable) {
    it(`${block.page}:${block.line} (${block.file}) exits 0`, async () => {
      const cwd = path.join(project.dir, folderOf(block.page))
      // tsx, a dependency of routeless, loads a .ts file on every supported node (node 20 strips no types).
      const r = await run(process.execPath, ['--import', 'tsx', block.file], { cwd, timeout: 60_000 })
      expect(r.code, `${r.stdout}\n${r.stderr}`).toBe(0)
    })
  }

  it('fails a block whose assertion fails (the runs above can fail)', async () => {
    const cwd = path.join(project.dir, 'deliberately-failing')
    writeBlocks(project.dir, [
      {
        page: 'deliberately-failing.md',
        line: 1,
        lang: 'ts',
        file: 'check.ts',
        runnable: true,
        code: [
          "import assert from 'node:assert/strict'",
          "import { createApp } from 'routeless'",
          'class Default { GET() { return 1 } }',
          "const app = await createApp({ modules: { '': { Default } } })",
          "assert.equal(await (await app.request('/')).json(), 2)",
          '',
        ].join('\n'),
      },
    ])
    const r = await run(process.execPath, ['--import', 'tsx', 'check.ts'], { cwd, timeout: 60_000 })
    expect(r.code).not.toBe(0)
    expect(r.stderr).toMatch(/AssertionError|Expected values to be strictly equal/)
  })
})
