/**
 * Operations, end to end on the example as `npm start` runs it: with the standard OpenTelemetry variables set (and no
 * other flag) a translation request produces one server span named by its template, exported by the SDK over
 * OTLP/HTTP (protobuf, its default) to a receiver this test starts on loopback; `/metrics` shows the request
 * duration histogram by template.
 */
import { spawn, type ChildProcess } from 'node:child_process'
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import path from 'node:path'
import { fileURLToPath } from 'node:url'
import { afterAll, expect, it } from 'vitest'
import { startReceiver } from '../../../test/_otlp-receiver.ts'

const dir = fileURLToPath(new URL('..', import.meta.url))
const dataDir = mkdtempSync(path.join(tmpdir(), 'translation-telemetry-'))
const receiver = await startReceiver()
let child: ChildProcess | undefined

afterAll(async () => {
  if (child && child.exitCode === null) {
    const exited = new Promise((resolve) => child!.once('exit', resolve))
    child.kill('SIGTERM')
    await exited
  }
  await receiver.close()
  rmSync(dataDir, { recursive: true, force: true })
})

/** `npm start`'s command with `env`, resolved with the URL of its start-up line. */
async function start(env: Record<string, string>): Promise<string> {
  const { OTEL_EXPORTER_OTLP_ENDPOINT: _, OTEL_SERVICE_NAME: __, ...inherited } = process.env
  child = spawn(process.execPath, ['--import', 'tsx', 'src/main.ts'], {
    cwd: dir,
    env: { ...inherited, ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  })
  let output = ''
  return new Promise<string>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`no start-up line in 60 s:\n${output}`)), 60_000)
    const onData = (chunk: Buffer) => {
      output += chunk
      const m = /on (http:\/\/127\.0\.0\.1:\d+)/.exec(output)
      if (m) {
        clearTimeout(timer)
        resolve(m[1]!)
      }
    }
    child!.stdout!.on('data', onData)
    child!.stderr!.on('data', onData)
    child!.on('exit', (code) => reject(new Error(`exited with ${code}:\n${output}`)))
  })
}

it('exports a translation request’s server span to an OTLP endpoint, and counts it at /metrics', async () => {
  const url = await start({
    PORT: '0',
    DATA_DIR: dataDir,
    API_KEY: 'telemetry-api-key',
    OTEL_EXPORTER_OTLP_ENDPOINT: receiver.url,
    OTEL_SERVICE_NAME: 'translation-e2e',
    OTEL_BSP_SCHEDULE_DELAY: '100', // export within 100 ms rather than the default 5 s
  })
  const res = await fetch(`${url}/v2/translate`, {
    method: 'POST',
    headers: {
      Authorization: 'DeepL-Auth-Key telemetry-api-key',
      'Content-Type': 'application/x-www-form-urlencoded',
      'User-Agent': 'telemetry-e2e/1.0',
    },
    body: 'text=Hello%2C%20world!&target_lang=DE',
  })
  expect(res.status).toBe(200)
  expect(await res.json()).toEqual({ translations: [{ detected_source_language: 'EN', text: 'Hallo, Welt!' }] })

  const spans = await receiver.waitFor((s) => s.attributes['url.path'] === '/v2/translate')
  expect(spans).toHaveLength(1)
  const [span] = spans
  expect(span).toMatchObject({
    name: 'POST /v2/translate',
    kind: 2, // SERVER
    encoding: 'protobuf',
    resource: { 'service.name': 'translation-e2e' },
    scope: { name: 'routeless' },
    status: { code: 0 },
  })
  expect(span!.attributes).toMatchObject({
    'http.request.method': 'POST',
    'http.route': '/v2/translate',
    'http.response.status_code': 200,
    'url.path': '/v2/translate',
    'server.address': '127.0.0.1',
    'server.port': Number(new URL(url).port),
    'user_agent.original': 'telemetry-e2e/1.0',
  })
  expect(span!.parentSpanId).toBe('')

  const metrics = await (await fetch(`${url}/metrics`)).text()
  expect(metrics).toContain(
    'http_server_request_duration_seconds_count{http_request_method="POST",http_route="/v2/translate",http_response_status_code="200"} 1',
  )
  expect(metrics).toContain('process_cpu_seconds_total') // the process's default metrics beside them
  expect((await fetch(`${url}/metrics`, { method: 'POST' })).status).toBe(405)
}, 90_000) // the example starts in 10–20 s on a busy machine (its types are read at start-up)
