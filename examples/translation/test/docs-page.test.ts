/**
 * The API reference page (`/docs`, the `docs` option) in a real browser — Debian's Chromium through playwright-core:
 * it renders every operation of this API's OpenAPI document, "Try it out" on GET /healthz answers 200, and so does
 * GET /v2/usage once the key is given in the "Authorize" dialog.
 */
import { authorize, describeDocsPage, tryItOut } from '@routeless/example-kit/testing'
import type { Page } from 'playwright-core'
import { expect } from 'vitest'
import { API_KEY, startServer } from './_server.ts'

/** The status of the live answer the page shows for the GET operation at `path`. */
async function lastStatus(page: Page, path: string): Promise<number> {
  const cell = page
    .locator(
      `.opblock:has(.opblock-summary-path[data-path="${path}"]) .live-responses-table .response .response-col_status`,
    )
    .first()
  return Number((await cell.textContent())?.trim().split(/\s/)[0])
}

describeDocsPage(startServer, {
  title: 'GET /v2/usage answers 403 without a key and 200 once authorized',
  async run(page) {
    expect(await tryItOut(page, 'GET', '/v2/usage')).toBe(403) // no key yet
    await authorize(page, 'auth_header', `DeepL-Auth-Key ${API_KEY}`)
    await page.locator('.opblock:has(.opblock-summary-path[data-path="/v2/usage"]) button.execute').first().click()
    await expect.poll(() => lastStatus(page, '/v2/usage'), { timeout: 10_000 }).toBe(200)
  },
})
