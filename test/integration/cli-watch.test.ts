/**
 * `routeless --watch` reloads the local modules controllers import, not only the controllers; with TypeScript 7 it reads
 * the types at start-up and after an edit through one checker process, open before the server says it listens.
 */
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import path from 'node:path'
import { fileURLToPath } from 'node:url'
import { afterAll, describe, expect, it } from 'vitest'
import { start } from '../package/_project.ts'
import { checkerProcesses } from '../_checker-processes.ts'

const BIN = fileURLToPath(new URL('../../packages/routeless/bin/routeless.js', import.meta.url))
let dir = ''
let server: ReturnType<typeof start> | undefined

afterAll(() => {
  if (server?.child.exitCode === null) server.child.kill('SIGKILL')
  if (dir) rmSync(dir, { recursive: true, force: true })
})

/** Resolves once stdout has printed `count` reload lines. */
async function reloads(s: ReturnType<typeof start>, count: number): Promise<void> {
  for (let i = 0; i < 200; i++) {
    if ((s.out.stdout.match(/reloaded \d+ handlers/g) ?? []).length >= count) return
    await new Promise((r) => setTimeout(r, 50))
  }
  throw new Error(`no reload: ${s.out.stdout}${s.out.stderr}`)
}

describe('routeless --watch', { timeout: 120_000 }, () => {
  it('serves the new code of an imported module (outside the prefix, and a private one inside it) after an edit', async () => {
    dir = mkdtempSync(path.join(tmpdir(), 'routeless-watch-cli-'))
    mkdirSync(path.join(dir, 'controllers/_lib'), { recursive: true })
    mkdirSync(path.join(dir, 'lib'))
    writeFileSync(path.join(dir, 'package.json'), '{"type":"module"}')
    writeFileSync(path.join(dir, 'lib/greeting.ts'), `export const greeting: string = 'one'\n`)
    writeFileSync(path.join(dir, 'controllers/_lib/suffix.ts'), `export const suffix = '!'\n`)
    writeFileSync(
      path.join(dir, 'controllers/index.ts'),
      `import { greeting } from '../lib/greeting.ts'
import { suffix } from './_lib/suffix.ts'
export class Default {
  GET() {
    return greeting + suffix
  }
}
`,
    )
    server = start(process.execPath, [BIN, '--watch', '--host=127.0.0.1:0', '--log-level=warn'], { cwd: dir })
    const url = await server.listening
    expect(await (await fetch(`${url}/`)).json()).toBe('one!')

    writeFileSync(path.join(dir, 'lib/greeting.ts'), `export const greeting: string = 'two'\n`)
    await reloads(server, 1)
    expect(await (await fetch(`${url}/`)).json()).toBe('two!')

    writeFileSync(path.join(dir, 'controllers/_lib/suffix.ts'), `export const suffix = '?'\n`)
    await reloads(server, 2)
    expect(await (await fetch(`${url}/`)).json()).toBe('two?')

    server.child.kill('SIGTERM')
    expect((await server.done).code).toBe(0)
  })

  it('reads the types at start-up and after an edit with one checker process, opened before it listens', async () => {
    const root = mkdtempSync(path.join(tmpdir(), 'routeless-watch-checker-cli-'))
    try {
      mkdirSync(path.join(root, 'controllers'))
      writeFileSync(path.join(root, 'package.json'), '{"type":"module"}')
      const handler = (type: string) => `export class Default {\n  GET(n: ${type}) {\n    return n\n  }\n}\n`
      writeFileSync(path.join(root, 'controllers/a.ts'), handler('number'))
      const s = start(process.execPath, [BIN, '--watch', '--host=127.0.0.1:0', '--log-level=warn'], { cwd: root })
      const seen = new Set<number>()
      const poll = setInterval(() => {
        for (const pid of checkerProcesses(s.child.pid!)) seen.add(pid)
      }, 20)
      try {
        const url = await s.listening
        expect(checkerProcesses(s.child.pid!)).toHaveLength(1) // open already: the first edit finds it
        expect((await fetch(`${url}/a/x`)).status).toBe(400) // \`n: number\`, read without a manifest
        writeFileSync(path.join(root, 'controllers/a.ts'), handler('string'))
        await reloads(s, 1)
        expect(await (await fetch(`${url}/a/x`)).json()).toBe('x')
        s.child.kill('SIGTERM')
        expect((await s.done).code).toBe(0)
      } finally {
        clearInterval(poll)
        if (s.child.exitCode === null) s.child.kill('SIGKILL')
      }
      expect(seen.size).toBe(1)
    } finally {
      rmSync(root, { recursive: true, force: true })
    }
  })
})
