/** The `routeless` command, run as users run it: the built bin in a child process. */
import { spawn, type ChildProcessWithoutNullStreams } from 'node:child_process'
import { cpSync, mkdtempSync } from 'node:fs'
import { createServer } from 'node:net'
import { tmpdir } from 'node:os'
import path from 'node:path'
import { fileURLToPath } from 'node:url'
import { afterEach, describe, expect, it } from 'vitest'
import { fixture } from '../_apps.ts'

const BIN = fileURLToPath(new URL('../../packages/routeless/bin/routeless.js', import.meta.url))
const MODULE_LOG = fileURLToPath(new URL('../_module-log.mjs', import.meta.url))
const FIXTURES = fixture('')
const running: ChildProcessWithoutNullStreams[] = []

interface Run {
  code: number | null
  stdout: string
  stderr: string
}

function start(args: string[], options: { cwd?: string; env?: Record<string, string> } = {}) {
  const child = spawn(process.execPath, [BIN, ...args], {
    cwd: options.cwd ?? FIXTURES,
    env: { ...process.env, ...options.env },
  })
  running.push(child)
  let stdout = ''
  let stderr = ''
  child.stdout.on('data', (d) => (stdout += d))
  child.stderr.on('data', (d) => (stderr += d))
  const done = new Promise<Run>((resolve) => child.on('close', (code) => resolve({ code, stdout, stderr })))
  const listening = new Promise<string>((resolve, reject) => {
    child.stdout.on('data', () => {
      const m = /listening on (http:\/\/\S+)/.exec(stdout)
      if (m) resolve(m[1]!)
    })
    child.on('close', () => reject(new Error(`exited before listening: ${stderr}`)))
  })
  listening.catch(() => {}) // only the tests that wait for it care
  return { child, done, listening }
}

const run = (args: string[], options?: Parameters<typeof start>[1]) => start(args, options).done

async function freePort(): Promise<number> {
  const srv = createServer()
  await new Promise<void>((r) => srv.listen(0, '127.0.0.1', r))
  const port = (srv.address() as { port: number }).port
  await new Promise((r) => srv.close(r))
  return port
}

afterEach(() => {
  for (const c of running.splice(0)) if (c.exitCode === null) c.kill('SIGKILL')
})

describe('routeless CLI', () => {
  it('serves Document 3 example and exits 0 on SIGTERM', async () => {
    const port = await freePort()
    const s = start(['--prefix=basic', `--host=127.0.0.1:${port}`])
    const url = await s.listening
    expect(url).toBe(`http://127.0.0.1:${port}`)
    expect(await (await fetch(`${url}/`)).text()).toBe('"Default handler"')
    expect(await (await fetch(`${url}/foo`)).text()).toBe('"Foo handler"')
    const posted = await fetch(`${url}/`, {
      method: 'POST',
      body: 'name=Awesome you',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
    })
    expect(await posted.text()).toBe('"hello Awesome you"')
    s.child.kill('SIGTERM')
    const result = await s.done
    expect(result.code).toBe(0)
    // node:http is the default server: the one that passes every probe of test/protocol.
    expect(result.stdout).toMatch(/listening on \S+ \(node\)/)
    const log = result.stderr
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l))
    expect(log.filter((l) => l.msg === 'request').map((l) => `${l.method} ${l.path} ${l.status}`)).toEqual([
      'GET / 200',
      'GET /foo 200',
      'POST / 200',
    ])
  })

  it('serves on uWebSockets.js when asked with --server=uws (or ROUTELESS_SERVER=uws)', async () => {
    for (const [args, env] of [
      [['--server=uws'], {}],
      [[], { ROUTELESS_SERVER: 'uws' }],
    ] as const) {
      const s = start(['--prefix=basic', '--host=127.0.0.1:0', '--log-level=warn', ...args], { env })
      const url = await s.listening
      expect(await (await fetch(`${url}/foo`)).text()).toBe('"Foo handler"')
      s.child.kill('SIGTERM')
      const result = await s.done
      expect(result.stdout).toMatch(/\(uws\)/)
      expect(result.code).toBe(0)
    }
  })

  it('writes one human line per request with --log-format=pretty (ROUTELESS_LOG_FORMAT)', async () => {
    for (const [args, env] of [
      [['--log-format=pretty'], {}],
      [[], { ROUTELESS_LOG_FORMAT: 'pretty' }],
    ] as const) {
      const s = start(['--prefix=basic', '--host=127.0.0.1:0', ...args], { env })
      const url = await s.listening
      await (await fetch(`${url}/foo`)).text()
      await (await fetch(`${url}/nope/a/b`)).text()
      s.child.kill('SIGTERM')
      const lines = (await s.done).stderr.trim().split('\n')
      expect(lines[0]).toMatch(/^\d\d:\d\d:\d\d\.\d{3} GET \/foo 200 [\d.]+ ms$/)
      expect(lines[1]).toMatch(/^\S+ GET \/nope\/a\/b 404 [\d.]+ ms$/)
    }
  })

  it('logs nothing per request below --log-level=info', async () => {
    const port = await freePort()
    const s = start(['--prefix=basic', `--host=127.0.0.1:${port}`, '--log-level=warn'])
    const url = await s.listening
    await (await fetch(`${url}/`)).text()
    s.child.kill('SIGTERM')
    expect((await s.done).stderr).toBe('')
  })

  it('reads ROUTELESS_PREFIX and ROUTELESS_HOST, with several prefixes separated by ":"', async () => {
    const port = await freePort()
    const s = start([], { env: { ROUTELESS_PREFIX: 'multi/one:multi/two', ROUTELESS_HOST: `127.0.0.1:${port}` } })
    const url = await s.listening
    expect(await (await fetch(`${url}/beta`)).text()).toBe('"beta from two"')
    s.child.kill('SIGINT')
    expect((await s.done).code).toBe(0)
  })

  it('serves the common flags without loading yargs, and reads anything else with it', async () => {
    const env = { NODE_OPTIONS: `--import=${MODULE_LOG}` }
    const loaded = async (args: string[]) => {
      const s = start([...args, '--prefix', 'basic', '--host=127.0.0.1:0'], { env })
      await s.listening
      s.child.kill('SIGTERM')
      const { code, stderr } = await s.done
      expect(code).toBe(0)
      return stderr.split('\n').filter((l) => l.startsWith('module-log: '))
    }
    const common = await loaded(['serve', '--server', 'node', '--workers=1', '--no-watch', '--log-level=warn'])
    expect(common.some((l) => l.includes('/dist/bin.js'))).toBe(true) // the hook saw the CLI load
    expect(common.filter((l) => l.includes('yargs'))).toEqual([])
    // --drain-delay is not one of them: yargs reads it, and is loaded
    expect((await loaded(['--drain-delay=0'])).some((l) => l.includes('/yargs/'))).toBe(true)
  }, 60_000)

  it('loads .ts controllers from a directory outside any "type": "module" package', async () => {
    const dir = mkdtempSync(path.join(tmpdir(), 'routeless-cjs-'))
    cpSync(fixture('basic'), path.join(dir, 'controllers'), { recursive: true })
    const port = await freePort()
    const s = start(['--prefix', 'controllers', '--host', `127.0.0.1:${port}`], { cwd: dir })
    const url = await s.listening
    expect(await (await fetch(`${url}/foo`)).text()).toBe('"Foo handler"')
    s.child.kill('SIGTERM')
    await s.done
  })

  it('prints the route table', async () => {
    const r = await run(['routes', '--prefix=tree'])
    expect(r.code).toBe(0)
    const lines = r.stdout
      .trim()
      .split('\n')
      .map((l) => l.split(/\s{2,}/))
    expect(lines[0]).toEqual(['METHOD', 'PATH', 'FILE', 'HANDLER', 'PARAMETERS'])
    expect(lines).toContainEqual(['GET', '/users/posts', 'tree/users.ts', 'Posts.GET', '(postId)'])
    expect(lines).toContainEqual(['GET', '/users', 'tree/users.ts', 'Default.GET', '(id?)'])
    expect(lines).toContainEqual(['GET', '/v3/status', 'tree/v3/status.ts', 'Default.GET', '(jobId)'])
    expect(lines).toContainEqual(['PUT', '/developer-keys', 'tree/developer-keys.ts', 'Default.PUT', '()'])
  })

  it('explains how a request resolves (exit 0), or why nothing answers it (exit 1)', async () => {
    const found = await run(['explain', 'GET', '/users/posts/7', '--prefix=tree'])
    expect(found.code).toBe(0)
    expect(found.stdout).toMatch(
      /^GET \/users\/posts\/7 → tree\/users\.ts Posts\.GET\n {2}path template {2}\/users\/posts\n {2}positional {5}postId="7"/,
    )
    const missing = await run(['explain', 'GET', '/users/posts', '--prefix=tree'])
    expect(missing.code).toBe(1)
    expect(missing.stdout.trim()).toBe('GET /users/posts → 404: Posts.GET takes 1 path part, got 0 (tree/users.ts)')
    const code = await run(['explain', 'GET', '/users/posts/7', '--prefix=tree', '--code'])
    expect(code.code).toBe(0)
    expect(code.stdout).toContain(
      '\n  function       construct → read → distinct → invoke → reply; evaluated at start-up\n    construct      the controller',
    )
    expect(code.stdout).toMatch(/\n {4}reply {10}the returned value becomes the answer[^\n]*\nfunction \(p, rt\) \{\n/)
    expect(code.stdout).toContain('  return function run(call) {\n')
  })

  it('checks a controller tree: each problem on stdout and exit 1, or "no problems" and exit 0', async () => {
    const dirty = await run(['check', '--prefix=lint'])
    expect(dirty.code).toBe(1)
    expect(dirty.stdout).toContain('warning: lint/index.ts: Items.params.PUTT names no handler of Items')
    expect(dirty.stdout.trim().split('\n').at(-1)).toBe('routeless: 3 handlers, 5 problems')
    expect(dirty.stderr).toBe('')
    const clean = await run(['check', '--prefix=basic'])
    expect(clean.code).toBe(0)
    expect(clean.stdout.trim()).toBe('routeless: 3 handlers, no problems')
  })

  it('exits 1 with a clear message for a missing prefix', async () => {
    const r = await run(['routes', '--prefix=nowhere'])
    expect(r.code).toBe(1)
    expect(r.stderr).toMatch(/Controller prefix "nowhere" not found.*\[ROUTELESS_ERR_PREFIX_NOT_FOUND\]/)
  })

  it('exits 1 naming the file and line of a controller that fails to load', async () => {
    const r = await run(['--prefix=conflict/broken', '--host=127.0.0.1:0'])
    expect(r.code).toBe(1)
    expect(r.stderr).toMatch(/conflict\/broken\/index\.ts failed to load: top-level failure \(.*index\.ts:6:\d+\)/)
  })

  it('exits 1 with a clear message when the port is in use', async () => {
    const blocker = createServer()
    await new Promise<void>((r) => blocker.listen(0, '127.0.0.1', r))
    const port = (blocker.address() as { port: number }).port
    const r = await run(['--prefix=basic', `--host=127.0.0.1:${port}`])
    blocker.close()
    expect(r.code).toBe(1)
    expect(r.stderr).toContain(`Port ${port} on 127.0.0.1 is already in use`)
  })

  it('exits 2 for a --body-limit that is not a whole number of bytes', async () => {
    const r = await run(['--prefix=basic', '--host=127.0.0.1:0', '--body-limit=abc'])
    expect(r.code).toBe(2)
    expect(r.stderr).toContain('--body-limit')
  })

  it('exits 2, serving nothing, for an unknown option or command', async () => {
    const option = await run(['--prefix=basic', '--port=18401'])
    expect(option.code).toBe(2)
    expect(option.stderr).toContain('Unknown argument: port')
    expect(option.stdout).not.toContain('listening')
    const command = await run(['rotues', '--prefix=basic'])
    expect(command.code).toBe(2)
    expect(command.stderr).toContain('Unknown argument: rotues')
    expect(command.stdout).not.toContain('listening')
  })

  it('exits 2 for a malformed --host', async () => {
    const r = await run(['--prefix=basic', '--host=127.0.0.1:99999'])
    expect(r.code).toBe(2)
    expect(r.stderr).toContain('Invalid --host')
  })

  it('prints help and version', async () => {
    const help = await run(['--help'])
    expect(help.code).toBe(0)
    expect(help.stdout).toContain('--prefix')
    expect(help.stdout).toContain('routes')
    const version = await run(['--version'])
    expect(version.stdout.trim()).toMatch(/^\d+\.\d+\.\d+$/)
  })
})
