/**
 * A start with neither a build nor a manifest (`routeless` in development, TypeScript 7): the CLI starts the checker
 * before it loads the config and has it open the tsconfig's program meanwhile (`compiler/analysis/early-analysis.ts`);
 * the analysis takes that checker instead of starting one. The built CLI, as users run it.
 */
import { cpSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import path from 'node:path'
import { fileURLToPath } from 'node:url'
import { afterEach, describe, expect, it } from 'vitest'
import { start } from '../package/_project.ts'
import { checkerProcesses } from '../_checker-processes.ts'

const BIN = fileURLToPath(new URL('../../packages/routeless/bin/routeless.js', import.meta.url))
const TYPESCRIPT = fileURLToPath(new URL('../../node_modules/typescript', import.meta.url))

/** The projects a test made and the servers it started, removed and stopped after it (a failed one too). */
const roots: string[] = []
const children: ReturnType<typeof start>['child'][] = []
afterEach(() => {
  for (const child of children.splice(0)) if (child.exitCode === null) child.kill('SIGKILL')
  for (const root of roots.splice(0)) rmSync(root, { recursive: true, force: true })
})

/** The starter's shape: `n: number` answers 400 on `/a/x` only where the types were read. */
function project(config = ''): string {
  const root = mkdtempSync(path.join(tmpdir(), 'routeless-early-checker-'))
  roots.push(root)
  mkdirSync(path.join(root, 'controllers'))
  writeFileSync(path.join(root, 'package.json'), '{"type":"module"}')
  writeFileSync(
    path.join(root, 'controllers/a.ts'),
    'export class Default {\n  GET(n: number) {\n    return n\n  }\n}\n',
  )
  if (config) writeFileSync(path.join(root, 'routeless.config.mjs'), `export default ${config}\n`)
  return root
}

/** Serves `root` and polls its checker processes until it listens: the pids seen, and the URL. */
async function serve(root: string, args: string[] = []) {
  const s = start(process.execPath, [BIN, '--host=127.0.0.1:0', '--log-level=warn', ...args], { cwd: root })
  children.push(s.child)
  const seen = new Set<number>()
  const poll = setInterval(() => {
    for (const pid of checkerProcesses(s.child.pid!)) seen.add(pid)
  }, 10)
  try {
    return { s, url: await s.listening, seen }
  } catch (error) {
    s.child.kill('SIGKILL')
    throw error
  } finally {
    clearInterval(poll)
  }
}

async function stop(s: Awaited<ReturnType<typeof serve>>['s']): Promise<void> {
  s.child.kill('SIGTERM')
  expect((await s.done).code).toBe(0)
}

describe('routeless without a manifest: the checker started early', { timeout: 120_000 }, () => {
  it('reads the types with the one checker it started before the config, and stops it before listening', async () => {
    const root = project()
    const { s, url, seen } = await serve(root)
    expect(seen.size).toBe(1) // the analysis took the early checker: a second would mean it started its own
    expect(checkerProcesses(s.child.pid!)).toHaveLength(0)
    expect((await fetch(`${url}/a/x`)).status).toBe(400)
    expect(await (await fetch(`${url}/a/2`)).json()).toBe(2)
    await stop(s)
  })

  it('stops the early checker no analysis took (the config turns the types off)', async () => {
    const root = project("{ types: 'off' }")
    const { s, url } = await serve(root)
    expect(checkerProcesses(s.child.pid!)).toHaveLength(0)
    expect(await (await fetch(`${url}/a/x`)).json()).toBe('x') // no types: the path part as it came
    await stop(s)
  })

  it('under --watch, opens one checker whether or not the manifest is current', async () => {
    const root = project()
    for (const run of ['no manifest', 'the manifest the first run wrote']) {
      const { s, url, seen } = await serve(root, ['--watch'])
      expect({ run, checkers: seen.size }).toEqual({ run, checkers: 1 })
      expect(checkerProcesses(s.child.pid!)).toHaveLength(1) // kept open for the next edit
      expect((await fetch(`${url}/a/x`)).status).toBe(400)
      await stop(s)
    }
  })

  it("serves as before where TypeScript's checker cannot start (its platform package missing)", async () => {
    const root = project("{ types: 'off' }")
    // The app's own typescript, without `@typescript/typescript-<platform>-<arch>` beside it: no binary to run.
    cpSync(TYPESCRIPT, path.join(root, 'node_modules/typescript'), { recursive: true, dereference: true })
    const { s, url } = await serve(root)
    expect(await (await fetch(`${url}/a/x`)).json()).toBe('x')
    await stop(s)
    expect(s.out.stderr).not.toMatch(/startEarlyAnalysis/)
  })

  it('starts no checker where the manifest is current', async () => {
    const root = project()
    const built = start(process.execPath, [BIN, 'build'], { cwd: root })
    expect((await built.done).code).toBe(0)
    rmSync(path.join(root, '.routeless/node'), { recursive: true, force: true }) // the manifest, not the build
    const { s, seen } = await serve(root)
    expect(seen.size).toBe(0)
    await stop(s)
  })
})
