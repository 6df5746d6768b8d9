/**
 * Metrics from the command line: `--metrics` (or ROUTELESS_METRICS, or the config's `metrics`) serves them at
 * /metrics or at the path given, on node:http and uWS; a value that is no path is a usage error (exit 2).
 */
import { cpSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import path from 'node:path'
import { fileURLToPath } from 'node:url'
import { afterAll, afterEach, describe, expect, it } from 'vitest'
import { fixture } from '../_apps.ts'
import { run, start } from '../package/_project.ts'

const BIN = fileURLToPath(new URL('../../packages/routeless/bin/routeless.js', import.meta.url))
const dir = mkdtempSync(path.join(tmpdir(), 'routeless-metrics-'))
cpSync(fixture('basic'), path.join(dir, 'api'), { recursive: true })
writeFileSync(
  path.join(dir, 'metrics.config.mjs'),
  `export default { prefix: 'api', metrics: { path: '/_ops/metrics' } }\n`,
)
const servers: ReturnType<typeof start>[] = []

afterEach(() => {
  for (const s of servers.splice(0)) if (s.child.exitCode === null) s.child.kill('SIGKILL')
})
afterAll(() => rmSync(dir, { recursive: true, force: true }))

function serve(args: string[], env: Record<string, string> = {}) {
  const s = start(process.execPath, [BIN, '--prefix=api', '--host=127.0.0.1:0', '--log-level=warn', ...args], {
    cwd: dir,
    env,
  })
  servers.push(s)
  return s
}

async function histogramCount(url: string, route: string): Promise<number | undefined> {
  const text = await (await fetch(url)).text()
  const line = text
    .split('\n')
    .find((l) => l.startsWith('http_server_request_duration_seconds_count{') && l.includes(`http_route="${route}"`))
  return line === undefined ? undefined : Number(line.split(' ').at(-1))
}

describe('--metrics', { timeout: 120_000 }, () => {
  for (const server of ['node', 'uws'])
    it(`serves the histogram at /metrics on ${server}`, async () => {
      const url = await serve(['--metrics', `--server=${server}`]).listening
      for (let i = 0; i < 3; i++) expect((await fetch(`${url}/foo`)).status).toBe(200)
      expect(await histogramCount(`${url}/metrics`, '/foo')).toBe(3)
    })

  it('serves at the path ROUTELESS_METRICS or the config file names, the flag winning', async () => {
    const fromEnv = await serve([], { ROUTELESS_METRICS: '/internal/metrics' }).listening
    await fetch(`${fromEnv}/foo`)
    expect(await histogramCount(`${fromEnv}/internal/metrics`, '/foo')).toBe(1)
    expect((await fetch(`${fromEnv}/metrics`)).status).toBe(404)
    const fromFile = await serve(['--config=metrics.config.mjs']).listening
    expect((await fetch(`${fromFile}/_ops/metrics`)).status).toBe(200)
    const off = await serve(['--config=metrics.config.mjs', '--metrics=false']).listening
    expect((await fetch(`${off}/_ops/metrics`)).status).toBe(404)
  })

  it('refuses a value that is not a path, and a path a controller answers', async () => {
    const bad = await run(process.execPath, [BIN, '--prefix=api', '--metrics=metrics'], { cwd: dir })
    expect(bad.code).toBe(2)
    expect(bad.stderr).toContain(
      '--metrics (ROUTELESS_METRICS) takes a path such as /metrics, or true/false; not "metrics"',
    )
    const taken = await run(process.execPath, [BIN, '--prefix=api', '--host=127.0.0.1:0', '--metrics=/foo'], {
      cwd: dir,
    })
    expect(taken.code).toBe(1)
    expect(taken.stderr).toContain('metrics.path /foo is also answered by a controller (GET /foo)')
  })
})
