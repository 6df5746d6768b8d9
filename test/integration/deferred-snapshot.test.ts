/**
 * `beginSnapshot` (`compiler/analysis/deferred-snapshot.ts`): TypeScript 7's checker opens a program while the event
 * loop runs, and its answer is read afterwards, not lost to node's stream over the checker's stdout.
 */
import { spawn } from 'node:child_process'
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import path from 'node:path'
import { fileURLToPath } from 'node:url'
import * as sync from 'typescript/unstable/sync'
import { describe, expect, it } from 'vitest'
import { beginSnapshot } from '../../packages/routeless/src/compiler/analysis/deferred-snapshot.ts'

const ROOT = fileURLToPath(new URL('../..', import.meta.url))

describe('beginSnapshot', { timeout: 60_000 }, () => {
  it('opens the program while the event loop runs, its answer read afterwards', async () => {
    const dir = mkdtempSync(path.join(tmpdir(), 'routeless-deferred-'))
    const api = new sync.API({ cwd: ROOT })
    try {
      const config = path.join(dir, 'tsconfig.json')
      const file = path.join(dir, 'a.ts')
      writeFileSync(file, 'export const a: number = 1\n')
      writeFileSync(config, JSON.stringify({ compilerOptions: { lib: ['es2022'], types: [] }, files: [file] }))
      const finish = beginSnapshot(api, { openProjects: [config] })
      expect(finish).toBeTypeOf('function')
      // Timers and I/O run meanwhile: node's stream over the checker's stdout must not read the answers.
      for (let i = 0; i < 5; i++) await new Promise((r) => setTimeout(r, 40))
      const child = (
        api as unknown as { client: { channel: { child: { pid: number; stdout: { readableLength: number } } } } }
      ).client.channel.child
      expect(child.stdout.readableLength).toBe(0)
      // `finish` blocks in `readSync`, where no timer of this process runs: a checker that never answered would hang
      // the run. A watchdog of its own process kills the checker after 30 s (it outlives SIGTERM), so the read fails instead.
      const watchdog = spawn('sh', ['-c', `sleep 30 && kill -9 ${child.pid}`], { stdio: 'ignore', detached: true })
      try {
        finish!()
      } finally {
        process.kill(-watchdog.pid!) // the shell and its sleep
      }
      const snapshot = api.updateSnapshot({ openProjects: [config], fileChanges: { changed: [config] } })
      const program = snapshot.getProject(config)!.program
      expect(program.getSourceFileNames()).toContain(file)
      expect(program.getSourceFileNames().some((f) => f.endsWith('lib.es2022.d.ts'))).toBe(true)
    } finally {
      api.close()
      rmSync(dir, { recursive: true, force: true })
    }
  })

  it('leaves an API it does not know alone', () => {
    expect(beginSnapshot({} as sync.API, { openProjects: [] })).toBeUndefined()
    const noPipe = { client: { channel: { writeTuple() {}, readTuple() {}, getMethodBuf() {} } } }
    expect(beginSnapshot(noPipe as unknown as sync.API, { openProjects: [] })).toBeUndefined()
  })
})
