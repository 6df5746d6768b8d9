/** The typed client's WebSockets: `websocket(...)` at a WEBSOCKET handler's path, its messages typed both ways. */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import path from 'node:path'
import { fileURLToPath } from 'node:url'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { WebSocket } from 'ws'
import type { Application } from 'routeless'
import { serve, type RunningServer } from 'routeless/node'
import { generateClient } from '../../packages/routeless/src/compiler/tooling/client.ts'
import { run } from '../package/_project.ts'
import { fixtureApp } from '../_apps.ts'

const TSC = fileURLToPath(new URL('../../node_modules/typescript/bin/tsc', import.meta.url))
const tsc = (dir: string, file: string) =>
  run(
    process.execPath,
    [
      TSC,
      '--strict',
      '--noEmit',
      '--target',
      'es2022',
      '--module',
      'nodenext',
      '--moduleResolution',
      'nodenext',
    ].concat(['--allowImportingTsExtensions', '--lib', 'es2022,dom', file]),
    { cwd: dir },
  )

let dir = ''
let app: Application
let server: RunningServer

beforeAll(async () => {
  dir = mkdtempSync(path.join(tmpdir(), 'routeless-client-socket-'))
  writeFileSync(path.join(dir, 'package.json'), '{"type":"module"}')
  app = await fixtureApp('features')()
  writeFileSync(path.join(dir, 'api.ts'), generateClient(app.table))
  server = await serve(app, { host: '127.0.0.1', port: 0 })
})

afterAll(async () => {
  await server?.close()
  rmSync(dir, { recursive: true, force: true })
})

describe('the typed client’s sockets', { timeout: 120_000 }, () => {
  it('type-checks a consumer, and fails one that sends or reads a message of the wrong type', async () => {
    writeFileSync(
      path.join(dir, 'consumer.ts'),
      `import { createClient } from './api.ts'
const api = createClient({ baseUrl: 'http://127.0.0.1:1' })
const s = api.signals.websocket({ name: 'ann' })
s.send({ kind: 'say', text: 'hi', times: 2 })
s.onMessage((m) => {
  if (m.kind === 'heard') console.log(m.text.toUpperCase(), m.by)
})
const raw = api.chat.websocket('room1')
raw.send('text')
raw.send(new Uint8Array([1]))
`,
    )
    const ok = await tsc(dir, 'consumer.ts')
    expect(ok.stdout + ok.stderr).toBe('')
    writeFileSync(
      path.join(dir, 'misuse.ts'),
      `import { createClient } from './api.ts'
const api = createClient({ baseUrl: 'http://127.0.0.1:1' })
const s = api.signals.websocket({ name: 'ann' })
s.send({ kind: 'shout', text: 'hi' })
s.onMessage((m) => console.log(m.text))
export const t = api.signals.websocket({})
`,
    )
    const bad = await tsc(dir, 'misuse.ts')
    expect(bad.code).not.toBe(0)
    const errors = bad.stdout.split('\n').filter((l) => l.includes('error TS'))
    expect(errors.map((l) => /misuse\.ts\((\d+),/.exec(l)?.[1])).toEqual(['4', '5', '6'])
  })

  it('exchanges typed messages with the server, and hears the close that refuses a bad one', async () => {
    const { createClient } = await import(path.join(dir, 'api.ts'))
    const api = createClient({ baseUrl: server.url, WebSocket })
    const s = api.signals.websocket({ name: 'ann' })
    const heard: unknown[] = []
    s.onMessage((m: unknown) => heard.push(m))
    await s.opened
    s.send({ kind: 'say', text: 'hi', times: 2 })
    s.send({ kind: 'say', text: 'hi', times: 9 })
    expect(await s.closed).toEqual({ code: 1007, reason: 'Invalid message: times must be <= 3' })
    expect(heard).toEqual([
      { kind: 'heard', text: 'hi', by: 'ann' },
      { kind: 'heard', text: 'hi', by: 'ann' },
    ])
    const refused = api.signals.websocket({})
    await expect(refused.opened).rejects.toThrow(/failed/)
  })
})
