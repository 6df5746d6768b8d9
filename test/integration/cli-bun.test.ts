/**
 * `routeless` run by bun (the binary npm installs: @oven/bun-linux-x64) serves on Bun's own server, `Bun.serve`: the
 * built CLI (packages/routeless/dist/bin.js, from `npm run build`) in a child process, on the fixture trees. The
 * start line names the server, typed binding and 405s answer as on node, WebSockets work, the access log is written,
 * SIGTERM drains a request in flight and exits 0, and `--server=node` still picks node:http through Bun's node
 * compatibility.
 */
import { spawn, spawnSync, type ChildProcessWithoutNullStreams } from 'node:child_process'
import { existsSync, mkdtempSync, writeFileSync } from 'node:fs'
import { request as httpRequest } from 'node:http'
import { connect, createServer, type AddressInfo } from 'node:net'
import { tmpdir } from 'node:os'
import path from 'node:path'
import { fileURLToPath } from 'node:url'
import { afterEach, beforeAll, describe, expect, it } from 'vitest'
import { WebSocket } from 'ws'

const BIN = fileURLToPath(new URL('../../packages/routeless/dist/bin.js', import.meta.url))
const BUN = fileURLToPath(new URL('../../node_modules/@oven/bun-linux-x64/bin/bun', import.meta.url))
const FIXTURES = fileURLToPath(new URL('../fixtures', import.meta.url))
const running: ChildProcessWithoutNullStreams[] = []

function start(runtime: string, args: string[], cwd: string, env: Record<string, string> = {}) {
  const child = spawn(runtime, [BIN, ...args], { cwd, env: { ...process.env, NODE_ENV: 'test', ...env } })
  running.push(child)
  let stdout = ''
  let stderr = ''
  child.stdout.on('data', (d) => (stdout += d))
  child.stderr.on('data', (d) => (stderr += d))
  const exited = new Promise<number | null>((resolve) => child.on('close', (code) => resolve(code)))
  const listening = new Promise<string>((resolve, reject) => {
    child.stdout.on('data', () => {
      const m = /listening on (http:\/\/\S+)/.exec(stdout)
      if (m) resolve(m[1]!)
    })
    child.on('close', () => reject(new Error(`exited before listening: ${stdout}${stderr}`)))
  })
  listening.catch(() => {})
  return { child, exited, listening, stdout: () => stdout, stderr: () => stderr }
}

afterEach(() => {
  for (const c of running.splice(0)) if (c.exitCode === null) c.kill('SIGKILL')
})

describe.skipIf(!existsSync(BIN) || !existsSync(BUN))('routeless run by bun (built CLI)', { timeout: 60_000 }, () => {
  // The repository's TypeScript is 7, whose API runs under Node.js only: as docs/contract.md tells a Bun user, the types
  // are read under node first (here by `routeless check`, which writes the fixtures' manifest), and Bun serves them.
  beforeAll(() => {
    for (const prefix of ['typed', 'features', 'basic']) {
      const run = spawnSync(process.execPath, [BIN, 'check', `--prefix=${prefix}`], { cwd: FIXTURES, encoding: 'utf8' })
      if (run.status !== 0) throw new Error(`routeless check --prefix=${prefix}: ${run.stdout}${run.stderr}`)
    }
  }, 120_000)

  it('serves a fixture tree on Bun.serve: typed binding, 405 with Allow, the access log', async () => {
    const s = start(BUN, ['--prefix=typed', '--host=127.0.0.1:0', '--log-format=json'], FIXTURES)
    const url = await s.listening
    expect(s.stdout()).toMatch(/routeless: \d+ handlers from typed listening on http:\/\/127\.0\.0\.1:\d+ \(bun\)/)
    const sum = await fetch(`${url}/add/2/3`)
    expect([sum.status, await sum.json()]).toEqual([200, 5])
    const typed = await fetch(`${url}/add/two/3`)
    expect(typed.status).toBe(400)
    expect((await typed.json()).message).toMatch(/a: /)
    const named = await fetch(url, {
      method: 'POST',
      body: 'name=you',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
    })
    expect(await named.json()).toBe('hello you')
    const wrong = await fetch(`${url}/add/2/3`, { method: 'DELETE' })
    expect(wrong.status).toBe(405)
    expect(wrong.headers.get('allow')).toBe('GET, HEAD, OPTIONS')
    const lines = s
      .stderr()
      .split('\n')
      .filter((l) => l.startsWith('{'))
      .map((l) => JSON.parse(l))
    expect(lines.filter((l) => l.msg === 'request').map((l) => [l.method, l.path, l.status])).toEqual([
      ['GET', '/add/2/3', 200],
      ['GET', '/add/two/3', 400],
      ['POST', '/', 200],
      ['DELETE', '/add/2/3', 405],
    ])
    s.child.kill('SIGTERM')
    expect(await s.exited).toBe(0)
  })

  it('exchanges WebSocket messages with a WEBSOCKET handler, and refuses what its guard refuses', async () => {
    const s = start(BUN, ['--prefix=features', '--host=127.0.0.1:0', '--log-level=warn'], FIXTURES)
    const url = (await s.listening).replace('http', 'ws')
    const ws = new WebSocket(`${url}/chat/room1?token=letmein`)
    const messages: string[] = []
    const waiters: ((m: string) => void)[] = []
    ws.on('message', (data) => {
      const m = data.toString()
      const w = waiters.shift()
      if (w) w(m)
      else messages.push(m)
    })
    const next = () => new Promise<string>((r) => (messages.length ? r(messages.shift()!) : waiters.push(r)))
    await new Promise((resolve, reject) => ws.once('open', resolve).once('error', reject))
    expect(await next()).toBe('joined room1')
    ws.send('hello')
    expect(await next()).toBe('echo:hello')
    ws.send(new Uint8Array([1, 2, 3]))
    expect(await next()).toBe('\x01\x02\x03')
    const closed = new Promise<number>((resolve) => ws.once('close', (code) => resolve(code)))
    ws.send('bye')
    expect(await closed).toBe(1000)
    const refused = new WebSocket(`${url}/chat/room1?token=wrong`)
    const status = await new Promise<number>((resolve) =>
      refused.once('unexpected-response', (_req, res) => resolve(res.statusCode!)),
    )
    expect(status).toBe(403)
    s.child.kill('SIGTERM')
    expect(await s.exited).toBe(0)
  })

  it('answers a GET asking for a WebSocket as a GET where no handler takes WebSockets (HTTP lets a server ignore Upgrade)', async () => {
    const s = start(BUN, ['--prefix=basic', '--host=127.0.0.1:0', '--log-level=warn'], FIXTURES)
    const { port } = new URL(await s.listening)
    const raw = await new Promise<string>((resolve, reject) => {
      let text = ''
      const socket = connect(Number(port), '127.0.0.1', () =>
        socket.write(
          'GET /foo HTTP/1.1\r\nHost: x\r\nConnection: Upgrade\r\nUpgrade: websocket\r\n' +
            'Sec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\nSec-WebSocket-Version: 13\r\n\r\n',
        ),
      )
      socket.on('data', (d) => {
        text += d
        if (text.endsWith('"Foo handler"')) socket.end()
      })
      socket.on('end', () => resolve(text)).on('error', reject)
    })
    expect(raw).toMatch(/^HTTP\/1\.1 200 /)
    expect(raw.endsWith('"Foo handler"')).toBe(true)
    s.child.kill('SIGTERM')
    expect(await s.exited).toBe(0)
  })

  it('drains a request in flight on SIGTERM, then exits 0', async () => {
    const dir = mkdtempSync(path.join(tmpdir(), 'routeless-bun-'))
    writeFileSync(
      path.join(dir, 'index.mjs'),
      `import { existsSync } from 'node:fs'
const here = new URL('.', import.meta.url).pathname
export class Slow {
  GET(name) {
    this.response.headers.set('content-type', 'text/plain')
    return (async function* () {
      yield 'start;'
      while (!existsSync(here + name)) await new Promise((r) => setTimeout(r, 10))
      yield 'end'
    })()
  }
}
`,
    )
    const s = start(BUN, ['--prefix=.', '--host=127.0.0.1:0', '--log-level=warn'], dir)
    const url = await s.listening
    const body = await new Promise<string>((resolve, reject) => {
      httpRequest(`${url}/slow/go`, { agent: false }, (res) => {
        let text = ''
        res.on('data', (d) => {
          text += d
          if (text === 'start;') {
            s.child.kill('SIGTERM')
            // Stopped: a new connection is refused while the answer in flight goes on; then let it end.
            setTimeout(() => {
              fetch(url).then(
                () => reject(new Error('still accepting connections while draining')),
                () => writeFileSync(path.join(dir, 'go'), ''),
              )
            }, 200)
          }
        })
        res.on('end', () => resolve(text))
      })
        .on('error', reject)
        .end()
    })
    expect(body).toBe('start;end')
    expect(await s.exited).toBe(0)
  })

  it('gives a handler the client’s address and whether the server drains in `this.env`', async () => {
    const dir = mkdtempSync(path.join(tmpdir(), 'routeless-bun-'))
    writeFileSync(
      path.join(dir, 'index.mjs'),
      'export class Env { GET() { return [this.env.remoteAddress, this.env.draining] } }\n',
    )
    const s = start(BUN, ['--prefix=.', '--host=127.0.0.1:0', '--log-level=warn'], dir)
    const url = await s.listening
    expect(await (await fetch(`${url}/env`)).json()).toEqual(['127.0.0.1', false])
    s.child.kill('SIGTERM')
    expect(await s.exited).toBe(0)
  })

  it('serves one port from two processes with --workers=2', async () => {
    const dir = mkdtempSync(path.join(tmpdir(), 'routeless-bun-'))
    writeFileSync(path.join(dir, 'index.mjs'), 'export class Pid { GET() { return process.pid } }\n')
    const s = start(BUN, ['--prefix=.', '--host=127.0.0.1:0', '--workers=2', '--log-level=warn'], dir)
    const url = await s.listening
    expect(s.stdout()).toContain('(bun, 2 workers)')
    const pids = new Set<string>()
    for (let i = 0; i < 200 && pids.size < 2; i++)
      pids.add(await (await fetch(`${url}/pid`, { headers: { connection: 'close' } })).text())
    expect(pids.size).toBe(2)
    s.child.kill('SIGTERM')
    expect(await s.exited).toBe(0)
  })

  it('serves on node:http through Bun’s node compatibility with --server=node', async () => {
    const s = start(BUN, ['--prefix=basic', '--host=127.0.0.1:0', '--server=node', '--log-level=warn'], FIXTURES)
    const url = await s.listening
    expect(s.stdout()).toMatch(/\(node\)$/m)
    expect(await (await fetch(`${url}/foo`)).json()).toBe('Foo handler')
    s.child.kill('SIGTERM')
    expect(await s.exited).toBe(0)
  })

  it('says the port is taken, and exits 1', async () => {
    const taken = createServer()
    await new Promise<void>((resolve) => taken.listen(0, '127.0.0.1', resolve))
    const { port } = taken.address() as AddressInfo
    try {
      const s = start(BUN, ['--prefix=basic', `--host=127.0.0.1:${port}`], FIXTURES)
      expect(await s.exited).toBe(1)
      expect(s.stderr()).toContain(`routeless: Port ${port} on 127.0.0.1 is already in use`)
    } finally {
      taken.close()
    }
  })

  it('refuses --server=bun on node, naming what it needs (exit 1)', async () => {
    const s = start(process.execPath, ['--prefix=basic', '--host=127.0.0.1:0', '--server=bun'], FIXTURES)
    expect(await s.exited).toBe(1)
    expect(s.stderr()).toContain('--server=bun needs Bun')
  })
})
