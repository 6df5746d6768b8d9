/**
 * The dev loop off node, with the repository's TypeScript 7 and no manifest written by node: `bun --watch server.ts`
 * and `deno run --watch server.ts`, whose `createApp` reads the handlers' types through TypeScript 7's async API
 * (compiler/analysis/reader-bridge.ts). The first start answers the typed 400; after an edit that changes a parameter's type,
 * the runtime restarts the server, which reads the edited file's types again and binds by them.
 */
import { spawn, type ChildProcess } from 'node:child_process'
import { existsSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { createServer } from 'node:net'
import path from 'node:path'
import { fileURLToPath } from 'node:url'
import { afterAll, describe, expect, it } from 'vitest'
import { BINARIES } from '../_runtimes.ts'

const ROOT = fileURLToPath(new URL('../..', import.meta.url))
const BUILT = path.join(ROOT, 'packages/routeless/dist/index.js')

const SERVER = `import { createApp } from 'routeless'

const app = await createApp(new URL('./controllers', import.meta.url).pathname)
const port = Number(process.env.PORT)
if (globalThis.Bun) Bun.serve({ hostname: '127.0.0.1', port, fetch: app.fetch })
else Deno.serve({ hostname: '127.0.0.1', port, onListen: () => {} }, app.fetch)
console.log('ready')
`
const BEFORE = `export class Pair {
  GET(a: number, b: number) {
    return [a, b]
  }
}
`
const AFTER = `export class Pair {
  GET(a: string, b: number) {
    return [a, b]
  }
}
`

async function freePort(): Promise<number> {
  const server = createServer()
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r))
  const { port } = server.address() as { port: number }
  await new Promise((r) => server.close(r))
  return port
}

const children: ChildProcess[] = []
const dirs: string[] = []
afterAll(() => {
  for (const c of children) if (c.exitCode === null) c.kill('SIGKILL')
  for (const d of dirs) rmSync(d, { recursive: true, force: true })
})

/** The status and body of `GET url`, or undefined while nothing listens. */
async function get(url: string): Promise<[number, unknown] | undefined> {
  try {
    const response = await fetch(url)
    return [response.status, await response.json()]
  } catch {
    return undefined
  }
}

/** Polls `url` until `accept` takes its answer (the server restarting in between); the last answer otherwise. */
async function until(url: string, accept: (a: [number, unknown]) => boolean, ms: number) {
  const deadline = Date.now() + ms
  let last: [number, unknown] | undefined
  while (Date.now() < deadline) {
    last = await get(url)
    if (last && accept(last)) return last
    await new Promise((r) => setTimeout(r, 200))
  }
  return last
}

describe.each(['bun', 'deno'] as const)('the watch loop on %s with TypeScript 7 and no manifest', (runtime) => {
  it.skipIf(!existsSync(BUILT))(
    'answers the typed 400, and after an edit binds by the edited types',
    async () => {
      // Inside the repository, so that `routeless` (the built package) and `typescript` (7) resolve as in a project.
      mkdirSync(path.join(ROOT, '.data'), { recursive: true })
      const dir = mkdtempSync(path.join(ROOT, '.data', `watch-${runtime}-`))
      dirs.push(dir)
      mkdirSync(path.join(dir, 'controllers'))
      writeFileSync(path.join(dir, 'package.json'), '{ "type": "module", "private": true }\n')
      writeFileSync(path.join(dir, 'server.ts'), SERVER)
      const controller = path.join(dir, 'controllers', 'index.ts')
      writeFileSync(controller, BEFORE)
      const port = await freePort()
      const args =
        runtime === 'bun'
          ? ['--watch', 'server.ts']
          : ['run', '--allow-all', '--quiet', `--watch=${path.join(dir, 'controllers')}`, 'server.ts']
      const child = spawn(BINARIES[runtime](), args, { cwd: dir, env: { ...process.env, PORT: String(port) } })
      children.push(child)
      let output = ''
      child.stdout!.on('data', (d) => (output += d))
      child.stderr!.on('data', (d) => (output += d))
      const url = `http://127.0.0.1:${port}/pair/two/3`
      // No manifest: the types are read at start, by TypeScript 7's async API on this runtime.
      const typed = await until(url, () => true, 90_000)
      expect(existsSync(path.join(dir, '.routeless', 'manifest.json')), output).toBe(true)
      expect(typed?.[0], output).toBe(400)
      expect(JSON.stringify(typed?.[1])).toContain('a: must be a number')
      expect(await get(`http://127.0.0.1:${port}/pair/2/3`)).toEqual([200, [2, 3]])
      // The edit: a is a string now, b still a number (bound by name and unchecked, b would stay "3").
      writeFileSync(controller, AFTER)
      const edited = await until(url, ([status]) => status === 200, 90_000)
      expect(edited, output).toEqual([200, ['two', 3]])
      expect((await get(`http://127.0.0.1:${port}/pair/two/x`))?.[0]).toBe(400)
      child.kill('SIGKILL')
    },
    240_000,
  )
})
