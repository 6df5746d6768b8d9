/** `routeless --watch` reloads the local modules controllers import, not only the controllers. */
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import path from 'node:path'
import { fileURLToPath } from 'node:url'
import { afterAll, describe, expect, it } from 'vitest'
import { start } from '../package/_project.ts'

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
})
