/**
 * The API reference page (`/docs`, the `docs` option) in a real browser — Debian's Chromium through playwright-core:
 * it renders every operation of this API's OpenAPI document, "Try it out" on GET /healthz answers 200, and so does
 * GET /v2/usage once the key is given in the "Authorize" dialog.
 */
import {
  authorize,
  CHROMIUM,
  chromiumAvailable,
  documentOperations,
  launchChromium,
  openDocs,
  renderedOperations,
  tryItOut,
} from '@routeless/example-kit/testing'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { API_KEY, startServer, type TestServer } from './_server.ts'

/** The status of the live answer the page shows for the GET operation at `path`. */
async function lastStatus(page: import('playwright-core').Page, path: string): Promise<number> {
  const cell = page
    .locator(
      `.opblock:has(.opblock-summary-path[data-path="${path}"]) .live-responses-table .response .response-col_status`,
    )
    .first()
  return Number((await cell.textContent())?.trim().split(/\s/)[0])
}

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

  it('renders every operation of /openapi.json; "Try it out" answers 200 on GET /healthz, and on GET /v2/usage once authorized', async () => {
    const doc = await (await fetch(`${server.url}/openapi.json`)).json()
    const page = await (await browser).newPage()
    await openDocs(page, server.url)
    const operations = documentOperations(doc)
    expect(operations.length).toBeGreaterThan(7)
    expect(await renderedOperations(page)).toEqual(operations)
    expect(await tryItOut(page, 'GET', '/healthz')).toBe(200)
    expect(await tryItOut(page, 'GET', '/v2/usage')).toBe(403) // no key yet
    await authorize(page, 'auth_header', `DeepL-Auth-Key ${API_KEY}`)
    await page.locator('.opblock:has(.opblock-summary-path[data-path="/v2/usage"]) button.execute').first().click()
    await expect.poll(() => lastStatus(page, '/v2/usage'), { timeout: 10_000 }).toBe(200)
  })
})
