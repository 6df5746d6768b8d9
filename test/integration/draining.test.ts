/**
 * Draining before the drain: `close()` sets `draining` (read by controllers as `this.env.draining`), serves on for the
 * drain delay so that a load balancer sees readiness fail and stops sending, then stops accepting and drains. On both
 * servers, through the library and through the CLI (SIGTERM waits the delay, SIGINT does not).
 */
import { spawn } from 'node:child_process'
import { connect } from 'node:net'
import { fileURLToPath } from 'node:url'
import { afterEach, describe, expect, it } from 'vitest'
import { createApp, type Application } from 'routeless'
import { serve, type RunningServer } from 'routeless/node'
import { serve as serveUws } from 'routeless/uws'
import { fixture } from '../_apps.ts'

const BIN = fileURLToPath(new URL('../../packages/routeless/bin/routeless.js', import.meta.url))
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms))
const SERVERS = { node: serve, uws: serveUws }

/** Whether a new connection to `port` is refused. */
function refusesConnections(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = connect(port, '127.0.0.1')
    socket.once('connect', () => {
      socket.destroy()
      resolve(false)
    })
    socket.once('error', () => resolve(true))
  })
}

const app = (): Promise<Application> => createApp(fixture('draining'), { logger: { error: () => {} } })
const status = async (url: string) => (await fetch(url)).status

for (const [name, serveOn] of Object.entries(SERVERS)) {
  describe(`close() with a drain delay [${name}]`, () => {
    let server: RunningServer | undefined
    afterEach(async () => {
      await server?.close({ delay: 0 })
      server = undefined
    })

    it('reports draining at once, serves on (new connections too) for the delay, then refuses connections', async () => {
      server = await serveOn(await app(), { port: 0, drainDelay: 600 })
      expect(server.draining).toBe(false)
      expect(await status(`${server.url}/readyz`)).toBe(200)
      const started = Date.now()
      const closed = server.close()
      expect(server.draining).toBe(true)
      const readiness = await fetch(`${server.url}/readyz`, { headers: { connection: 'close' } })
      expect([readiness.status, await readiness.json()]).toEqual([
        503,
        { status: 503, error: 'Service Unavailable', message: 'draining' },
      ])
      expect(await refusesConnections(server.port)).toBe(false)
      expect(await (await fetch(`${server.url}/work/50`)).json()).toBe('done')
      await closed
      expect(Date.now() - started).toBeGreaterThanOrEqual(590)
      expect(await refusesConnections(server.port)).toBe(true)
    })

    it('a second close() with a shorter delay ends the wait sooner (a second signal)', async () => {
      server = await serveOn(await app(), { port: 0, drainDelay: 10_000 })
      const started = Date.now()
      const first = server.close()
      await sleep(100)
      expect(await status(`${server.url}/readyz`)).toBe(503)
      const second = server.close({ delay: 0 })
      await Promise.all([first, second])
      expect(Date.now() - started).toBeLessThan(3000)
      expect(await refusesConnections(server.port)).toBe(true)
    })

    it('drains at once without a delay (the default), and requests in flight still finish', async () => {
      server = await serveOn(await app(), { port: 0 })
      const inFlight = fetch(`${server.url}/work/300`).then((r) => r.json())
      await sleep(50)
      const closed = server.close()
      expect(server.draining).toBe(true)
      await sleep(20)
      expect(await refusesConnections(server.port)).toBe(true)
      expect(await inFlight).toBe('done')
      await closed
    })

    it('refuses a drain delay that is not a number of milliseconds', async () => {
      await expect(serveOn(await app(), { port: 0, drainDelay: -1 })).rejects.toThrow(
        'drainDelay must be a number of milliseconds, 0 or more, got -1',
      )
      server = await serveOn(await app(), { port: 0 })
      expect(() => server!.close({ delay: Number.NaN })).toThrow('close({ delay }) must be a number of milliseconds')
      expect(server.draining).toBe(false)
    })
  })
}

describe('this.env.draining in-process', () => {
  it('is not set under app.fetch unless the caller says so', async () => {
    const a = await app()
    expect((await a.request('/readyz')).status).toBe(200)
    expect((await a.fetch(new Request('http://x/readyz'), { draining: true })).status).toBe(503)
  })
})

/** The CLI on the fixture; resolves once it listens. */
async function cli(args: string[], env: Record<string, string> = {}) {
  const child = spawn(process.execPath, [BIN, '--prefix=draining', '--host=127.0.0.1:0', ...args], {
    cwd: fixture(''),
    env: { ...process.env, ROUTELESS_LOG_LEVEL: 'warn', ...env },
  })
  let stdout = ''
  child.stdout.on('data', (d) => (stdout += d))
  child.stderr.on('data', (d) => (stdout += d))
  const exited = new Promise<number | null>((resolve) => child.on('close', (code) => resolve(code)))
  const url = await new Promise<string>((resolve, reject) => {
    child.stdout.on('data', () => {
      const m = /listening on (http:\/\/\S+)/.exec(stdout)
      if (m) resolve(m[1]!)
    })
    child.on('close', () => reject(new Error(`exited before listening: ${stdout}`)))
  })
  return { child, url, exited, output: () => stdout }
}

describe('the CLI on SIGTERM with --drain-delay', { timeout: 60_000 }, () => {
  for (const server of ['node', 'uws']) {
    it(`answers /readyz 503 for the delay while serving, then exits 0 (${server})`, async () => {
      const s = await cli(['--drain-delay=800', `--server=${server}`])
      try {
        expect(await status(`${s.url}/readyz`)).toBe(200)
        const started = Date.now()
        s.child.kill('SIGTERM')
        await sleep(150)
        expect(await status(`${s.url}/readyz`)).toBe(503)
        expect(await (await fetch(`${s.url}/work/10`)).json()).toBe('done')
        expect(await s.exited).toBe(0)
        expect(Date.now() - started).toBeGreaterThanOrEqual(790)
        expect(s.output()).toContain('routeless: SIGTERM: draining, not ready for 800 ms, then closing')
      } finally {
        s.child.kill('SIGKILL')
      }
    })
  }

  it('ROUTELESS_DRAIN_DELAY sets the delay, and SIGINT (Ctrl-C) during it closes at once', async () => {
    const s = await cli([], { ROUTELESS_DRAIN_DELAY: '30000' })
    try {
      const started = Date.now()
      s.child.kill('SIGTERM')
      await sleep(200)
      expect(await status(`${s.url}/readyz`)).toBe(503) // the variable's delay runs
      s.child.kill('SIGINT')
      expect(await s.exited).toBe(0)
      expect(Date.now() - started).toBeLessThan(5000)
    } finally {
      s.child.kill('SIGKILL')
    }
  })

  it('skips the delay on SIGINT, and a second SIGTERM during the delay closes at once', async () => {
    const i = await cli(['--drain-delay=30000'])
    const started = Date.now()
    i.child.kill('SIGINT')
    expect(await i.exited).toBe(0)
    expect(Date.now() - started).toBeLessThan(5000)
    const s = await cli(['--drain-delay=30000'])
    try {
      const started = Date.now()
      s.child.kill('SIGTERM')
      await sleep(200)
      expect(await status(`${s.url}/readyz`)).toBe(503)
      s.child.kill('SIGTERM')
      expect(await s.exited).toBe(0)
      expect(Date.now() - started).toBeLessThan(5000)
    } finally {
      s.child.kill('SIGKILL')
    }
  })

  it('passes SIGTERM on to --workers, which answer /readyz 503 for the delay, then exit 0', async () => {
    const s = await cli(['--drain-delay=1000', '--workers=2'])
    try {
      expect(await status(`${s.url}/readyz`)).toBe(200)
      const started = Date.now()
      s.child.kill('SIGTERM') // the primary only, as a supervisor sends it
      await sleep(300)
      const answers = await Promise.all(
        Array.from({ length: 4 }, () => fetch(`${s.url}/readyz`, { headers: { connection: 'close' } })),
      )
      expect(answers.map((r) => r.status)).toEqual([503, 503, 503, 503])
      expect(await s.exited).toBe(0)
      expect(Date.now() - started).toBeGreaterThanOrEqual(990)
    } finally {
      s.child.kill('SIGKILL')
    }
  })

  it('refuses a drain delay that is not a whole number of milliseconds (exit 2)', async () => {
    for (const args of [['--drain-delay=-5'], ['--drain-delay=soon']]) {
      const child = spawn(process.execPath, [BIN, '--prefix=draining', '--host=127.0.0.1:0', ...args], {
        cwd: fixture(''),
      })
      let stderr = ''
      child.stderr.on('data', (d) => (stderr += d))
      const code = await new Promise((resolve) => child.on('close', resolve))
      expect(code).toBe(2)
      expect(stderr).toMatch(/--drain-delay/)
    }
  })
})
