/**
 * The API reference page (`/docs`, the `docs` option) in a real browser — Debian's Chromium through playwright-core:
 * it renders every operation of this API's OpenAPI document, and "Try it out" on GET /healthz answers 200.
 */
import {
  CHROMIUM,
  chromiumAvailable,
  documentOperations,
  launchChromium,
  openDocs,
  renderedOperations,
  tryItOut,
} from '@routeless/example-kit/testing'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { startServer, type TestServer } from './helpers/server.ts'

describe.skipIf(!chromiumAvailable())(`GET /docs in Chromium (${CHROMIUM})`, { timeout: 60_000 }, () => {
  let server: { url: string }
  const browser = launchChromium()
  beforeAll(async () => {
    server = await startServer()
  })
  afterAll(async () => {
    await (await browser).close()
    await (server as TestServer)?.close()
  })

  it('renders every operation of /openapi.json, and "Try it out" on GET /healthz answers 200', async () => {
    const doc = await (await fetch(`${server.url}/openapi.json`)).json()
    const page = await (await browser).newPage()
    await openDocs(page, server.url)
    const operations = documentOperations(doc)
    expect(operations.length).toBeGreaterThan(7)
    expect(await renderedOperations(page)).toEqual(operations)
    expect(await tryItOut(page, 'GET', '/healthz')).toBe(200)
  })
})
