/**
 * The scale-out setup: nginx in front of two instances on one PostgreSQL database (the test's own), nginx's rotation kept by their
 * `/readyz` (example-kit nginx.ts). One instance is served by `npm start` (src/main.ts, routeless/node), the other
 * by `routeless --server=uws` with this folder's routeless.config.ts. Under steady traffic through nginx (logins,
 * record writes and reads), one instance gets SIGTERM: its `/readyz` answers 503 for DRAIN_DELAY_MS while it still
 * serves, nginx takes it out of rotation, it drains and exits 0 — and no request is lost: every one is answered
 * 2xx, and none reaches the instance once it has gone.
 */
import { fileURLToPath } from 'node:url'
import {
  type ChildInstance,
  NGINX,
  PG_BIN,
  ReadinessGate,
  startChildInstance,
  startNginx,
  startPrivatePostgres,
} from '@routeless/example-kit/testing'
import { describe, expect, it } from 'vitest'

const EXAMPLE = fileURLToPath(new URL('..', import.meta.url))
const MAIN = fileURLToPath(new URL('../src/main.ts', import.meta.url))
const BIN = fileURLToPath(new URL('../../../packages/routeless/bin/routeless.js', import.meta.url))
const DRAIN_DELAY = 1500
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms))

/** One client's loop through nginx: log in, then write and read records, until `stop`; every answer is kept. */
async function client(base: string, id: number, stop: () => boolean, seen: Answer[]): Promise<void> {
  const send = async (method: string, path: string, body?: unknown, token?: string) => {
    const started = Date.now()
    try {
      const res = await fetch(`${base}${path}`, {
        method,
        headers: {
          // A connection per request: nginx's reload (the gate's doing) closes its idle client connections, and a
          // client sending on one just then would see a reset — nginx's matter, not the draining instance's.
          connection: 'close',
          ...(body ? { 'content-type': 'application/json' } : {}),
          ...(token ? { authorization: `Bearer ${token}` } : {}),
        },
        body: body ? JSON.stringify(body) : undefined,
        signal: AbortSignal.timeout(10_000),
      })
      const text = await res.text()
      seen.push({ what: `${method} ${path}`, status: res.status, upstream: res.headers.get('x-upstream'), at: started })
      return { res, text }
    } catch (error) {
      seen.push({ what: `${method} ${path}`, status: 0, error: String(error), upstream: null, at: started })
      return undefined
    }
  }
  const login = await send('POST', '/login', { username: 'demo', password: 'demo-password' })
  const token = login?.res.headers.get('x-session-token') ?? undefined
  for (let n = 0; !stop(); n++) {
    const name = `c${id}-${n}`
    await send('POST', '/configurations', { name, hostname: 'example.com', port: 443, username: 'ops' }, token)
    await send('GET', `/configurations/${name}`, undefined, token)
    await send('GET', '/configurations?page=0&per_page=5', undefined, token)
  }
}

interface Answer {
  what: string
  status: number
  upstream: string | null
  at: number
  error?: string
}

describe.runIf(PG_BIN && NGINX)('two instances behind nginx, one of them draining', { timeout: 120_000 }, () => {
  for (const drained of ['uws', 'node'] as const) {
    it(`loses no request while the ${drained} instance drains after SIGTERM`, async () => {
      const database = await startPrivatePostgres()
      const env = { DATABASE_URL: database.url, USERS: 'demo:demo-password', DRAIN_DELAY_MS: String(DRAIN_DELAY) }
      const instances: ChildInstance[] = []
      let nginx: Awaited<ReturnType<typeof startNginx>> | undefined
      const gate = { stop: () => {} }
      try {
        const node = await startChildInstance(MAIN, env, { timeoutMs: 90_000 })
        instances.push(node)
        const uws = await startChildInstance(BIN, env, {
          args: ['--server=uws', '--log-level=warn'],
          cwd: EXAMPLE,
          timeoutMs: 90_000,
        })
        instances.push(uws)
        const urls = [node.url, uws.url]
        nginx = await startNginx(urls.map((u) => new URL(u).host))
        const readiness = new ReadinessGate(urls, (up) => nginx!.route(up))
        readiness.start()
        gate.stop = () => readiness.stop()

        const seen: Answer[] = []
        let stopping = false
        const clients = Array.from({ length: 4 }, (_, i) => client(nginx!.url, i, () => stopping, seen))
        await sleep(1500)
        const target = drained === 'uws' ? uws : node
        const targetHost = new URL(target.url).host
        const exited = new Promise<number | null>((resolve) => target.child.once('exit', (code) => resolve(code)))
        const sigterm = Date.now()
        target.child.kill('SIGTERM')
        const code = await exited
        const gone = Date.now()
        await sleep(1500) // traffic goes on through nginx to the other instance
        stopping = true
        await Promise.all(clients)

        const failed = seen.filter((a) => a.status === 0 || a.status >= 300)
        const when = (a: Answer) => `${a.what} ${a.status} ${a.error ?? ''} via ${a.upstream} at ${a.at - sigterm} ms`
        expect(failed.map(when), `gone at ${gone - sigterm} ms\n${nginx.log()}`).toEqual([])
        expect(code).toBe(0)
        expect(gone - sigterm).toBeGreaterThanOrEqual(DRAIN_DELAY - 10)
        const before = seen.filter((a) => a.at < sigterm)
        const after = seen.filter((a) => a.at > gone)
        // Both served before; only the other one after; and traffic really went on.
        expect(new Set(before.map((a) => a.upstream)).size).toBe(2)
        expect(after.length).toBeGreaterThan(20)
        expect(after.filter((a) => a.upstream === targetHost)).toEqual([])
      } finally {
        gate.stop()
        await nginx?.stop()
        for (const i of instances) await i.kill()
        await database.destroy()
      }
    })
  }
})
