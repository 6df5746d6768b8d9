/**
 * The change feed scaled out: two instances on one PostgreSQL (one `npm start` on routeless/node, one
 * `routeless --server=uws`), behind nginx where it is installed (else the clients reach the instances in turn). Four
 * writers make 1,000 writes while one subscriber reads the feed, leaving and reconnecting with `Last-Event-ID` three
 * times (each time to the other instance, without nginx). Every write is seen exactly once, in order per record.
 */
import { fileURLToPath } from 'node:url'
import {
  type ChildInstance,
  NGINX,
  PG_BIN,
  startChildInstance,
  startNginx,
  startPrivatePostgres,
} from '@routeless/example-kit/testing'
import { describe, expect, it } from 'vitest'

const EXAMPLE = fileURLToPath(new URL('..', import.meta.url))
const MAIN = fileURLToPath(new URL('../src/main.ts', import.meta.url))
const BIN = fileURLToPath(new URL('../../../packages/routeless/bin/routeless.js', import.meta.url))
const WRITES = 1000
const WRITERS = 4

interface Change {
  id: number
  event: string
  name: string
  port: number
}

/** Reads the feed at `base` after `after`, giving each change to `onChange` until it answers false; the last id. */
async function subscribe(
  base: string,
  token: string,
  after: string | undefined,
  onChange: (change: Change) => boolean,
): Promise<string | undefined> {
  const abort = new AbortController()
  const headers: Record<string, string> = { accept: 'text/event-stream', authorization: `Bearer ${token}` }
  if (after !== undefined) headers['last-event-id'] = after
  const res = await fetch(`${base}/configurations/`, { headers, signal: abort.signal })
  if (res.status !== 200) throw new Error(`subscribe: ${res.status} ${await res.text()}`)
  const reader = res.body!.getReader()
  const decoder = new TextDecoder()
  let buffer = ''
  let last = after
  try {
    for (;;) {
      const { done, value } = await reader.read()
      if (done) return last
      buffer += decoder.decode(value, { stream: true })
      for (let end = buffer.indexOf('\n\n'); end >= 0; end = buffer.indexOf('\n\n')) {
        const block = buffer.slice(0, end)
        buffer = buffer.slice(end + 2)
        const field = (name: string) => block.match(new RegExp(`^${name}: ?(.*)$`, 'm'))?.[1]
        const event = field('event')
        const id = field('id')
        if (id !== undefined) last = id
        if (!event || event === 'ready') continue
        const data = JSON.parse(field('data')!)
        if (!onChange({ id: Number(id), event, name: data.name, port: data.port })) return last
      }
    }
  } finally {
    reader.cancel().catch(() => {})
    abort.abort()
  }
}

describe.runIf(PG_BIN)('the change feed on two instances of one PostgreSQL', { timeout: 300_000 }, () => {
  it(`sees each of ${WRITES} writes once, in order per record, with a subscriber reconnecting three times`, async () => {
    const database = await startPrivatePostgres()
    const env = { DATABASE_URL: database.url, USERS: 'demo:demo-password' }
    const instances: ChildInstance[] = []
    let nginx: Awaited<ReturnType<typeof startNginx>> | undefined
    try {
      instances.push(await startChildInstance(MAIN, env, { timeoutMs: 90_000 }))
      instances.push(
        await startChildInstance(BIN, env, {
          args: ['--server=uws', '--log-level=warn'],
          cwd: EXAMPLE,
          timeoutMs: 90_000,
        }),
      )
      if (NGINX) nginx = await startNginx(instances.map((i) => new URL(i.url).host))
      const bases = nginx ? [nginx.url] : instances.map((i) => i.url)
      const base = (n: number) => bases[n % bases.length]!
      const login = await fetch(`${base(0)}/login`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ username: 'demo', password: 'demo-password' }),
      })
      const token = login.headers.get('x-session-token')!
      const auth = { authorization: `Bearer ${token}`, 'content-type': 'application/json' }

      // Each writer's own records, written in turn: the order of its writes to one record is known.
      const written = new Map<string, string[]>()
      let next = 0
      const writer = async (w: number) => {
        for (let n = 0; ; n++) {
          const i = next++
          if (i >= WRITES) return
          const name = `w${w}-r${n % 5}`
          const ops = written.get(name) ?? []
          const exists = ops.length > 0 && ops.at(-1) !== 'delete'
          const op = !exists ? 'create' : n % 3 === 0 ? 'delete' : 'update'
          const url = op === 'create' ? `${base(i)}/configurations/` : `${base(i)}/configurations/${name}`
          const res = await fetch(url, {
            method: op === 'create' ? 'POST' : op === 'delete' ? 'DELETE' : 'PATCH',
            headers: auth,
            body:
              op === 'delete'
                ? undefined
                : JSON.stringify(
                    op === 'create' ? { name, hostname: 'h.example', port: 1, username: 'u' } : { port: 2 + i },
                  ),
          })
          await res.text()
          if (res.status !== 200 && res.status !== 209) throw new Error(`${op} ${name}: ${res.status}`)
          written.set(name, [...ops, op])
        }
      }

      const seen: Change[] = []
      let last: string | undefined = '0' // a fresh database: from its first change
      let round = 0
      const writing = Promise.all(Array.from({ length: WRITERS }, (_, w) => writer(w)))
      let finished = false
      writing.then(() => (finished = true))
      // Three reconnections during the writes, then read on until every write is in.
      for (; round < 3; round++) {
        let count = 0
        last = await subscribe(base(round), token, last, (c) => (seen.push(c), ++count < 150))
      }
      await writing
      expect(finished).toBe(true)
      const total = [...written.values()].reduce((n, ops) => n + ops.length, 0)
      expect(total).toBe(WRITES)
      const first = seen[0]!.id
      if (seen.length < WRITES) await subscribe(base(round), token, last, (c) => (seen.push(c), seen.length < WRITES))

      // Exactly once, in the feed's order: the ids follow each other.
      expect(seen.map((c) => c.id)).toEqual(Array.from({ length: WRITES }, (_, i) => first + i))
      // In order per record: each record's events are its writer's writes, in turn.
      const byRecord = new Map<string, string[]>()
      for (const c of seen) byRecord.set(c.name, [...(byRecord.get(c.name) ?? []), c.event])
      expect(Object.fromEntries(byRecord)).toEqual(Object.fromEntries(written))
    } finally {
      await nginx?.stop()
      for (const i of instances) await i.kill()
      await database.destroy()
    }
  })
})
