/**
 * The guide's way (docs/operations.md) to trace an app served by the CLI: an SDK registered by `node --import` before `routeless` starts
 * (no flag), in one process and in each of `--workers=2`; the spans reach an OTLP endpoint on loopback.
 */
import { fileURLToPath } from 'node:url'
import { afterAll, afterEach, expect, it } from 'vitest'
import { fixture } from '../_apps.ts'
import { startReceiver } from '../_otlp-receiver.ts'
import { start } from '../package/_project.ts'

const BIN = fileURLToPath(new URL('../../packages/routeless/bin/routeless.js', import.meta.url))
const REGISTER = fileURLToPath(new URL('../_otel-register.mjs', import.meta.url))
const receiver = await startReceiver()
const servers: ReturnType<typeof start>[] = []

afterEach(() => {
  for (const s of servers.splice(0)) if (s.child.exitCode === null) s.child.kill('SIGKILL')
})
afterAll(() => receiver.close())

for (const workers of ['1', '2'])
  it(`traces the CLI's requests when an SDK is registered by --import (--workers=${workers})`, {
    timeout: 120_000,
  }, async () => {
    const s = start(
      process.execPath,
      ['--import', REGISTER, BIN, `--prefix=${fixture('telemetry')}`, '--host=127.0.0.1:0', `--workers=${workers}`],
      { cwd: fixture('telemetry'), env: { OTLP_TEST_URL: receiver.url } },
    )
    servers.push(s)
    const url = await s.listening
    const agent = `cli-workers-${workers}`
    for (let i = 0; i < 4; i++)
      expect((await fetch(`${url}/users/${i}`, { headers: { 'user-agent': agent } })).status).toBe(200)
    const spans = await receiver.waitFor(
      (span) => span.attributes['user_agent.original'] === agent && span.name === 'GET /users/{id}',
    )
    expect(spans[0]).toMatchObject({
      kind: 2,
      scope: { name: 'routeless' },
      attributes: { 'http.route': '/users/{id}' },
    })
    // The access log line of a traced request carries its ids.
    const line = s.out.stderr
      .split('\n')
      .filter((l) => l.startsWith('{'))
      .map((l) => JSON.parse(l) as Record<string, unknown>)
      .find((l) => l.trace_id === spans[0]!.traceId)
    expect(line).toMatchObject({
      msg: 'request',
      path: expect.stringMatching(/^\/users\/\d$/),
      span_id: spans[0]!.spanId,
    })
  })
