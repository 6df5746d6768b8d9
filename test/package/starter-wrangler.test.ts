/**
 * The starter's Workers project with the wrangler npm installs on Node.js 20 (4.86.0, the newest whose engines take
 * node 20; its workerd supports compatibility dates up to 2026-05-03): `npm run dev` (`wrangler dev`, which runs
 * `npm run build` first) answers over HTTP. Run where the npm registry is reachable (wrangler is ~60 MB); skipped
 * with a line saying so when it cannot be installed.
 */
import { spawn } from 'node:child_process'
import { createServer } from 'node:net'
import path from 'node:path'
import { afterAll, beforeAll, expect, it } from 'vitest'
import { describeOn } from '../_matrix.ts'
import { run, userEnv } from './_project.ts'
import { answers, create, EXPECTED_ANSWERS, install, packBoth, type Packs } from './_starter.ts'

/** The wrangler npm installs on node 20 (newer ones require node 22). */
const WRANGLER = '4.86.0'

let packs: Packs
let dir: string
let installed = false

beforeAll(async () => {
  packs = await packBoth()
  const made = await create(packs, ['app-wrangler', '--runtime=workers'])
  expect(made.code, made.stderr).toBe(0)
  dir = path.join(packs.dir, 'app-wrangler')
  await install(packs, dir)
  const pinned = await run('npm', ['install', '--no-audit', '--no-fund', '--save-dev', `wrangler@${WRANGLER}`], {
    cwd: dir,
    timeout: 600_000,
  })
  installed = pinned.code === 0
  if (!installed) console.warn(`starter-wrangler: wrangler ${WRANGLER} could not be installed: ${pinned.stderr}`)
}, 900_000)

afterAll(() => packs?.remove())

/** A port nothing listens on (wrangler dev takes no port 0). */
function freePort(): Promise<number> {
  return new Promise((resolve) => {
    const server = createServer().listen(0, '127.0.0.1', () => {
      const { port } = server.address() as { port: number }
      server.close(() => resolve(port))
    })
  })
}

describeOn('workerd', `the Workers project on wrangler ${WRANGLER}`, { timeout: 300_000 }, () => {
  it('answers on `npm run dev` (wrangler dev builds it, then serves it on its workerd)', async (ctx) => {
    if (!installed) return ctx.skip()
    const port = await freePort()
    const child = spawn('npm', ['run', 'dev', '--', '--ip=127.0.0.1', `--port=${port}`], {
      cwd: dir,
      env: userEnv({ WRANGLER_SEND_METRICS: 'false', CI: '1', NO_COLOR: '1' }),
      detached: true,
    })
    let output = ''
    child.stdout.on('data', (d) => (output += d))
    child.stderr.on('data', (d) => (output += d))
    try {
      const url = `http://127.0.0.1:${port}`
      let ready = false
      for (let i = 0; i < 240 && !ready && child.exitCode === null; i++) {
        await new Promise((r) => setTimeout(r, 500))
        ready = await fetch(`${url}/`).then(
          (r) => r.ok,
          () => false,
        )
      }
      expect(ready, output).toBe(true)
      expect(await answers(url)).toEqual(EXPECTED_ANSWERS)
    } finally {
      try {
        process.kill(-child.pid!, 'SIGKILL')
      } catch {
        // already gone
      }
    }
  })
})
