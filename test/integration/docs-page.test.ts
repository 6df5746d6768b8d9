/**
 * The API reference page (`docs`): Swagger UI's files from swagger-ui-dist, the generated document, 404 for any other
 * path under /docs, 405 for methods other than GET and HEAD, in-process, on both servers and from the CLI. (Its
 * rendering in a browser is tested on the examples: examples/*\/test/docs-page.test.ts.)
 */
import { spawn } from 'node:child_process'
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { createRequire } from 'node:module'
import { tmpdir } from 'node:os'
import path from 'node:path'
import { fileURLToPath } from 'node:url'
import { afterAll, describe, expect, it } from 'vitest'
import { createApp, type HttpError, RoutelessError } from 'routeless'
import { serve } from 'routeless/node'
import { serve as serveUws } from 'routeless/uws'
import { fixture } from '../_apps.ts'

const BIN = fileURLToPath(new URL('../../packages/routeless/bin/routeless.js', import.meta.url))
const DIST = path.dirname(createRequire(import.meta.url).resolve('swagger-ui-dist/package.json'))
const quiet = { error: () => {}, warn: () => {} }
const basic = (docs: Parameters<typeof createApp>[1] = {}) =>
  createApp(fixture('basic'), { logger: quiet, docs: true, ...docs })

describe('docs: true', async () => {
  const app = await basic()

  it('serves the page, which loads Swagger UI from /docs and starts it on /docs/openapi.json', async () => {
    const page = await app.request('/docs')
    expect(page.status).toBe(200)
    expect(page.headers.get('content-type')).toBe('text/html; charset=utf-8')
    const html = await page.text()
    expect(html).toContain('<script src="/docs/swagger-ui-bundle.js"></script>')
    expect(html).toContain('<link rel="stylesheet" href="/docs/swagger-ui.css">')
    expect(html).not.toMatch(/https?:\/\//) // nothing from a CDN
    const init = await (await app.request('/docs/init.js')).text()
    expect(init).toContain('"url":"/docs/openapi.json"')
    expect(init).toContain('SwaggerUIBundle.presets.apis')
    // Served, its server is the origin it was asked from.
    expect(await (await app.request('/docs/openapi.json')).json()).toEqual(app.openapi({ origin: 'http://localhost' }))
  })

  it("serves swagger-ui-dist's files byte for byte, with their types and an entity tag", async () => {
    for (const [name, type] of [
      ['swagger-ui-bundle.js', 'text/javascript; charset=utf-8'],
      ['swagger-ui.css', 'text/css; charset=utf-8'],
      ['favicon-32x32.png', 'image/png'],
      ['oauth2-redirect.html', 'text/html; charset=utf-8'],
    ]) {
      const res = await app.request(`/docs/${name}`)
      expect([res.status, res.headers.get('content-type')]).toEqual([200, type])
      expect(Buffer.from(await res.arrayBuffer()).equals(readFileSync(path.join(DIST, name!)))).toBe(true)
      expect(res.headers.get('etag')).toBe(`"swagger-ui-5.35.0-${name}"`)
    }
  })

  it('answers 304 to a request that has the file already, and HEAD without the body', async () => {
    const tag = '"swagger-ui-5.35.0-swagger-ui.css"'
    const cached = await app.request('/docs/swagger-ui.css', { headers: { 'if-none-match': `"old", W/${tag}` } })
    expect([cached.status, await cached.text()]).toEqual([304, ''])
    const head = await app.request('/docs/swagger-ui.css', { method: 'HEAD' })
    expect([head.status, head.headers.get('content-type'), await head.text()]).toEqual([
      200,
      'text/css; charset=utf-8',
      '',
    ])
  })

  it('answers 404 for any other path under /docs (other files of the package, escapes, the source maps)', async () => {
    for (const p of [
      '/docs/nope.js',
      '/docs/package.json',
      '/docs/index.html',
      '/docs/swagger-ui-bundle.js.map',
      '/docs/..%2Fpackage.json',
      '/docs/swagger-ui.css/x',
      '/docs/',
    ]) {
      const res = await app.request(p)
      expect(res.status, p).toBe(404)
      expect(await res.json()).toEqual({
        status: 404,
        error: 'Not Found',
        message: `The API reference has no file ${p}`,
      })
    }
  })

  it('answers 405 with Allow: GET, HEAD for any other method', async () => {
    for (const [method, p] of [
      ['POST', '/docs'],
      ['PUT', '/docs/swagger-ui.css'],
      ['DELETE', '/docs/openapi.json'],
      ['PATCH', '/docs/init.js'],
      ['OPTIONS', '/docs'],
    ]) {
      const res = await app.request(p!, { method })
      expect([res.status, res.headers.get('allow')]).toEqual([405, 'GET, HEAD'])
      expect((await res.json()).message).toBe(`${method} is not allowed on ${p}`)
    }
  })

  it("leaves the app's own paths alone (/docsets is routed as before)", async () => {
    expect((await app.request('/foo')).status).toBe(200)
    expect((await app.request('/docsets')).status).toBe(404)
    expect((await (await app.request('/docsets')).json()).message).toBe('No controller answers GET /docsets')
  })
})

describe('the docs option', () => {
  it('is off by default: /docs is an ordinary path', async () => {
    const app = await createApp(fixture('basic'), { logger: quiet })
    expect((await app.request('/docs')).status).toBe(404)
    expect((await app.request('/docs/swagger-ui.css')).status).toBe(404)
  })

  it("shows a document the app serves itself ({ openapi: '/openapi.json' }); /docs/openapi.json is then no file", async () => {
    const app = await basic({ docs: { openapi: '/openapi.json' } })
    expect(await (await app.request('/docs/init.js')).text()).toContain('"url":"/openapi.json"')
    expect((await app.request('/docs/openapi.json')).status).toBe(404)
  })

  it('passes its OpenAPI options to the generated document ({ openapi: { info } })', async () => {
    const app = await basic({ docs: { openapi: { info: { title: 'Basic', version: '2.0.0' } } } })
    expect((await (await app.request('/docs/openapi.json')).json()).info).toEqual({ title: 'Basic', version: '2.0.0' })
  })

  it("renders its 404 and 405 with the app's renderError", async () => {
    const app = await basic({
      renderError: (error: HttpError) => Response.json({ message: error.message }, { status: error.status }),
    })
    expect(await (await app.request('/docs/nope')).json()).toEqual({
      message: 'The API reference has no file /docs/nope',
    })
  })

  it('refuses a document path that is not one, and a controller under /docs (start-up errors)', async () => {
    await expect(basic({ docs: { openapi: 'openapi.json' } })).rejects.toThrow(
      'docs.openapi must be a path of this app starting with /, got "openapi.json"',
    )
    const conflict = createApp(
      {
        modules: {
          '': {
            Docs: class {
              GET() {}
            },
          },
        },
      },
      { logger: quiet, docs: true },
    )
    await expect(conflict).rejects.toBeInstanceOf(RoutelessError)
    await expect(conflict).rejects.toMatchObject({ code: 'ROUTELESS_ERR_ROUTE_CONFLICT' })
    await expect(conflict).rejects.toThrow('GET /docs (<module index> Docs.GET) is under /docs')
  })
})

describe('the docs page on the servers', async () => {
  const app = await basic()
  for (const [name, serveOn] of [
    ['node', serve],
    ['uws', serveUws],
  ] as const) {
    it(`serves the page and Swagger UI's bundle (${name})`, async () => {
      const server = await serveOn(app, { port: 0 })
      try {
        expect((await fetch(`${server.url}/docs`)).status).toBe(200)
        const bundle = await fetch(`${server.url}/docs/swagger-ui-bundle.js`)
        expect(Buffer.from(await bundle.arrayBuffer()).length).toBe(
          readFileSync(path.join(DIST, 'swagger-ui-bundle.js')).length,
        )
        expect((await fetch(`${server.url}/docs/nope`)).status).toBe(404)
        expect((await fetch(`${server.url}/docs`, { method: 'POST' })).status).toBe(405)
      } finally {
        await server.close()
      }
    })
  }
})

describe('docs from the CLI', { timeout: 60_000 }, () => {
  const dir = mkdtempSync(path.join(tmpdir(), 'routeless-docs-'))
  afterAll(() => rmSync(dir, { recursive: true, force: true }))

  async function served(args: string[], cwd: string, check: (url: string) => Promise<void>, env = {}) {
    const child = spawn(process.execPath, [BIN, '--host=127.0.0.1:0', '--log-level=warn', ...args], {
      cwd,
      env: { ...process.env, ...env },
    })
    let out = ''
    child.stdout.on('data', (d) => (out += d))
    child.stderr.on('data', (d) => (out += d))
    const exited = new Promise((resolve) => child.on('close', resolve))
    try {
      const url = await new Promise<string>((resolve, reject) => {
        child.stdout.on('data', () => {
          const m = /listening on (http:\/\/\S+)/.exec(out)
          if (m) resolve(m[1]!)
        })
        child.on('close', () => reject(new Error(`exited before listening: ${out}`)))
      })
      await check(url)
    } finally {
      child.kill('SIGTERM')
      await exited
    }
  }

  it('serves /docs with --docs (and ROUTELESS_DOCS=1), not without', async () => {
    await served(['--prefix=basic', '--docs'], fixture(''), async (url) => {
      expect((await fetch(`${url}/docs`)).status).toBe(200)
    })
    await served(
      ['--prefix=basic'],
      fixture(''),
      async (url) => {
        expect((await fetch(`${url}/docs/swagger-ui.css`)).status).toBe(200)
      },
      { ROUTELESS_DOCS: '1' },
    )
    await served(['--prefix=basic'], fixture(''), async (url) => {
      expect((await fetch(`${url}/docs`)).status).toBe(404)
    })
  })

  it("serves /docs with docs: true in routeless.config.ts, showing the config's openapi info", async () => {
    writeFileSync(path.join(dir, 'package.json'), '{"type":"module"}')
    writeFileSync(path.join(dir, 'index.mjs'), 'export class Default { GET() { return "home" } }\n')
    writeFileSync(
      path.join(dir, 'routeless.config.mjs'),
      "export default { prefix: 'index.mjs', docs: true, openapi: { info: { title: 'Configured', version: '3.0.0' } } }\n",
    )
    await served([], dir, async (url) => {
      expect((await fetch(`${url}/docs`)).status).toBe(200)
      const doc = await (await fetch(`${url}/docs/openapi.json`)).json()
      expect([doc.info.title, Object.keys(doc.paths)]).toEqual(['Configured', ['/']])
    })
    await served(['--no-docs'], dir, async (url) => {
      expect((await fetch(`${url}/docs`)).status).toBe(404)
    })
  })
})
