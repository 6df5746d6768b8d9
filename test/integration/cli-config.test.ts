/** `routeless.config.ts`: app options and CLI settings from a file, flags and ROUTELESS_* variables winning over it. */
import { cpSync, mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import path from 'node:path'
import { fileURLToPath } from 'node:url'
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest'
import { fixture } from '../_apps.ts'
import { run, start } from '../package/_project.ts'

const BIN = fileURLToPath(new URL('../../packages/routeless/bin/routeless.js', import.meta.url))
const EXAMPLE = fileURLToPath(new URL('../../examples/configurations', import.meta.url))
const node = process.execPath
const servers: ReturnType<typeof start>[] = []
let dir: string

beforeAll(() => {
  dir = mkdtempSync(path.join(tmpdir(), 'routeless-config-'))
  writeFileSync(path.join(dir, 'package.json'), JSON.stringify({ type: 'module' }))
  // The config imports routeless as a user's does: from the project's node_modules (here, this repository's build).
  mkdirSync(path.join(dir, 'node_modules'))
  symlinkSync(
    fileURLToPath(new URL('../../packages/routeless', import.meta.url)),
    path.join(dir, 'node_modules/routeless'),
    'dir',
  )
  cpSync(fixture('basic'), path.join(dir, 'api'), { recursive: true })
  writeFileSync(
    path.join(dir, 'routeless.config.ts'),
    `import { defineConfig, HttpError } from 'routeless'

export default defineConfig({
  prefix: 'api',
  host: '127.0.0.1:99999',
  logLevel: 'warn',
  cors: { origins: ['https://app.example'] },
  context: async () => ({ greeting: 'hello' }),
  renderError: (error: HttpError) => Response.json({ oops: error.message }, { status: error.status }),
  ready: (app) => console.log(\`ready: \${app.table.rows.length} handlers, context \${JSON.stringify(app.options.context)}\`),
  close: () => console.log('closed'),
  openapi: { info: { title: 'From the config', version: '9.9.9' } },
})
`,
  )
  writeFileSync(
    path.join(dir, 'guarded.config.mjs'),
    `import { AccessDenied } from 'routeless'
export default {
  prefix: 'api',
  logLevel: 'silent',
  auth: (c) => { if (c.request.headers.get('x-key') !== 'k') throw new AccessDenied('a key is required', { scheme: 'Key', realm: 'api' }) },
}
`,
  )
  writeFileSync(path.join(dir, 'other.config.mjs'), `export default { prefix: 'api', colour: 'blue' }\n`)
})

afterEach(() => {
  for (const s of servers.splice(0)) if (s.child.exitCode === null) s.child.kill('SIGKILL')
})

afterAll(() => rmSync(dir, { recursive: true, force: true }))

function serve(args: string[], options: { cwd: string; env?: Record<string, string> }) {
  const s = start(node, [BIN, ...args], options)
  servers.push(s)
  return s
}

describe('routeless.config.ts', { timeout: 120_000 }, () => {
  it('gives the app its options (cors, context, renderError, ready, close), a flag winning over its host', async () => {
    const s = serve(['--host=127.0.0.1:0'], { cwd: dir })
    const url = await s.listening
    expect(s.out.stdout).toContain('ready: 3 handlers, context {"greeting":"hello"}')
    expect(s.out.stdout).toMatch(/3 handlers from api listening on http:\/\/127\.0\.0\.1:\d+ \(node\)/)
    const allowed = await fetch(`${url}/foo`, { headers: { origin: 'https://app.example' } })
    expect(allowed.headers.get('access-control-allow-origin')).toBe('https://app.example')
    const missing = await fetch(`${url}/nope/a/b/c`)
    expect(missing.status).toBe(404)
    expect(await missing.json()).toEqual({ oops: expect.stringContaining('No controller answers') })
    // logLevel 'warn' from the file: no access lines.
    s.child.kill('SIGTERM')
    const done = await s.done
    expect(done.code).toBe(0)
    expect(done.stdout.trim().split('\n').at(-1)).toBe('closed')
    expect(done.stderr).toBe('')
  })

  it('lets ROUTELESS_HOST win over the file, and --log-level over its logLevel', async () => {
    const s = serve(['--log-level=info'], { cwd: dir, env: { ROUTELESS_HOST: '127.0.0.1:0' } })
    const url = await s.listening
    await (await fetch(`${url}/foo`)).text()
    s.child.kill('SIGTERM')
    const done = await s.done
    expect(JSON.parse(done.stderr.trim().split('\n')[0]!)).toMatchObject({ msg: 'request', path: '/foo', status: 200 })
  })

  it("is where routes and openapi read the prefix and the document's info", async () => {
    const routes = await run(node, [BIN, 'routes'], { cwd: dir })
    expect(routes.stdout).toMatch(/GET\s+\/foo\s+api\/index\.ts\s+Foo\.GET/)
    const openapi = await run(node, [BIN, 'openapi'], { cwd: dir })
    expect(JSON.parse(openapi.stdout).info).toEqual({ title: 'From the config', version: '9.9.9' })
    const titled = await run(node, [BIN, 'openapi', '--title=Flag'], { cwd: dir })
    expect(JSON.parse(titled.stdout).info).toEqual({ title: 'Flag', version: '9.9.9' })
  })

  it('exits 2 for a config file that is missing or names an option that does not exist', async () => {
    const missing = await run(node, [BIN, 'routes', '--config=nowhere.config.ts'], { cwd: dir })
    expect(missing.code).toBe(2)
    expect(missing.stderr).toContain('config file nowhere.config.ts not found')
    const unknown = await run(node, [BIN, 'routes', '--config=other.config.mjs'], { cwd: dir })
    expect(unknown.code).toBe(2)
    expect(unknown.stderr).toContain('other.config.mjs: unknown option colour')
  })

  it('guards the whole tree with its auth option', async () => {
    const s = serve(['--config=guarded.config.mjs', '--host=127.0.0.1:0'], { cwd: dir })
    const url = await s.listening
    for (const p of ['/', '/foo']) {
      expect((await fetch(url + p)).status).toBe(401)
      expect((await fetch(url + p, { headers: { 'x-key': 'k' } })).status).toBe(200)
    }
    s.child.kill('SIGTERM')
    expect((await s.done).code).toBe(0)
  })

  it('starts --workers, each with the context the config makes', async () => {
    const s = serve(['--host=127.0.0.1:0', '--workers=2'], { cwd: dir })
    const url = await s.listening
    expect(s.out.stdout).toMatch(/listening on \S+ \(node, 2 workers\)/)
    expect(s.out.stdout.match(/ready: 3 handlers, context \{"greeting":"hello"\}/g)).toHaveLength(2)
    expect(
      (await fetch(`${url}/foo`, { headers: { origin: 'https://app.example' } })).headers.get(
        'access-control-allow-origin',
      ),
    ).toBe('https://app.example')
    s.child.kill('SIGTERM')
    const done = await s.done
    expect(done.code).toBe(0)
    expect(done.stdout.match(/^closed$/gm)).toHaveLength(2)
  })

  it('serves examples/configurations with its routeless.config.ts, as npm start does', async () => {
    const data = mkdtempSync(path.join(tmpdir(), 'routeless-config-data-'))
    try {
      const s = serve(['--log-level=warn'], {
        cwd: EXAMPLE,
        env: { PORT: '0', DATA_DIR: data, USERS: 'demo:demo-password' },
      })
      const url = await s.listening
      expect(s.out.stdout).toMatch(
        /routeless: \d+ handlers from controllers listening on http:\/\/127\.0\.0\.1:\d+ \(node\)/,
      )
      const doc = await (await fetch(`${url}/openapi.json`)).json()
      expect(doc.info.title).toBe('routeless configurations example')
      expect((await fetch(`${url}/configurations/`)).status).toBe(403) // no session
      const login = await fetch(`${url}/login`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ username: 'demo', password: 'demo-password' }),
      })
      expect(login.status).toBe(200)
      s.child.kill('SIGTERM')
      expect((await s.done).code).toBe(0)
    } finally {
      rmSync(data, { recursive: true, force: true })
    }
  })
})
