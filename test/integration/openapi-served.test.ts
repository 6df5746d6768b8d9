/**
 * The OpenAPI document as it is served and printed: `/docs/openapi.json` (its server the origin asked from,
 * `?version=3.2`), `routeless openapi --spec=3.2 --host=…`, and the served document linted: Redocly's recommended
 * rules and Spectral's `spectral:oas` find no error.
 */
import { execFile } from 'node:child_process'
import { mkdtempSync, writeFileSync } from 'node:fs'
import { createRequire } from 'node:module'
import { tmpdir } from 'node:os'
import path from 'node:path'
import { promisify } from 'node:util'
import { Validator } from '@seriousme/openapi-schema-validator'
import { type Application, createApp } from 'routeless'
import { runCli } from 'routeless/cli'
import { beforeAll, describe, expect, it } from 'vitest'
import { fixture } from '../_apps.ts'

const run = promisify(execFile)
const require = createRequire(import.meta.url)
const dir = mkdtempSync(path.join(tmpdir(), 'routeless-openapi-'))

let app: Application
beforeAll(async () => {
  app = await createApp([fixture('openapi'), fixture('schemas')], {
    docs: { openapi: { info: { title: 'fixtures', version: '1.0.0' } } },
    logger: { error: () => {}, warn: () => {} },
  })
})

const served = async (query = '') => {
  const res = await app.fetch(new Request(`https://api.example.com/docs/openapi.json${query}`))
  return { status: res.status, body: (await res.json()) as any }
}

describe('GET /docs/openapi.json', () => {
  it('is OpenAPI 3.1 with the origin it is asked from as its server; ?version=3.2 gives 3.2, a bad one 400', async () => {
    const { body } = await served()
    expect(body.openapi).toBe('3.1.0')
    expect(body.servers).toEqual([{ url: 'https://api.example.com' }])
    const v32 = await served('?version=3.2')
    expect(v32.body.openapi).toBe('3.2.0')
    expect(v32.body.paths['/'].query).toBeDefined()
    expect((await new Validator().validate(v32.body)).valid).toBe(true)
    const bad = await served('?version=4')
    expect(bad.status).toBe(400)
    expect(bad.body.message).toBe('version must be 3.1 or 3.2, got "4"')
  })

  it("has no error under Redocly's recommended rules nor Spectral's spectral:oas", async () => {
    const file = path.join(dir, 'openapi.json')
    writeFileSync(file, JSON.stringify((await served()).body))
    const redocly = path.join(path.dirname(require.resolve('@redocly/cli/package.json')), 'bin/cli.js')
    const spectral = require.resolve('@stoplight/spectral-cli/dist/index.js')
    const ruleset = path.join(dir, '.spectral.yaml')
    writeFileSync(ruleset, 'extends: ["spectral:oas"]\n')
    const [r, s] = await Promise.all([
      run(process.execPath, [redocly, 'lint', file, '--extends=recommended', '--format=json'], {
        env: { ...process.env, REDOCLY_TELEMETRY: 'off', REDOCLY_SUPPRESS_UPDATE_NOTICE: 'true' },
      }).catch((e) => e),
      run(process.execPath, [spectral, 'lint', file, '--ruleset', ruleset, '--format=json', '--quiet']).catch((e) => e),
    ])
    const redoclyErrors = JSON.parse(r.stdout).problems.filter((p: { severity: string }) => p.severity === 'error')
    expect(redoclyErrors).toEqual([])
    const spectralErrors = JSON.parse(s.stdout || '[]').filter((p: { severity: number }) => p.severity === 0)
    expect(spectralErrors).toEqual([])
  }, 120_000)
})

describe('routeless openapi', () => {
  it('--spec=3.2 prints OpenAPI 3.2; --host gives its server', async () => {
    const out: string[] = []
    const io = { stdout: (l: string) => out.push(l), stderr: (l: string) => out.push(l) }
    const argv = ['openapi', `--prefix=${fixture('openapi')}`, '--spec=3.2', '--host=api.example.com:8443']
    expect(await runCli(argv, io)).toBe(0)
    const doc = JSON.parse(out.join('\n'))
    expect(doc.openapi).toBe('3.2.0')
    expect(doc.servers).toEqual([{ url: 'http://api.example.com:8443' }])
    expect(doc.paths['/'].query.operationId).toBe('queryRoot')
    out.length = 0
    expect(await runCli(['openapi', `--prefix=${fixture('openapi')}`, '--spec=3.3'], io)).not.toBe(0)
  })
})
