/**
 * Test helper: an example's API reference page (`/docs`) as a person sees it — Debian's Chromium driven by
 * playwright-core (never a downloaded browser): the operations the page renders, and one "Try it out" call made by
 * clicking through Swagger UI.
 */
import { existsSync } from 'node:fs'
import { type Browser, chromium, type Page } from 'playwright-core'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'

export const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium'

/**
 * Whether a browser test of `what` runs: where Chromium is installed, and always in CI (`CI=1`, where `.ci/run`
 * installs Debian's `chromium`: a missing browser there fails the test instead of skipping it). Elsewhere the skip is
 * said on the console.
 */
export function browserTested(what: string): boolean {
  if (existsSync(CHROMIUM) || process.env.CI === '1') return true
  console.warn(`\n!!! ${CHROMIUM} not found: the browser test of ${what} is SKIPPED (apt-get install chromium).\n`)
  return false
}

export function launchChromium(): Promise<Browser> {
  return chromium.launch({ executablePath: CHROMIUM, args: ['--headless', '--no-sandbox', '--disable-gpu'] })
}

/** `METHOD /path` of every operation of an OpenAPI document. */
export function documentOperations(doc: { paths: Record<string, Record<string, unknown>> }): string[] {
  const methods = new Set(['get', 'put', 'post', 'delete', 'options', 'head', 'patch', 'trace'])
  return Object.entries(doc.paths)
    .flatMap(([path, ops]) =>
      Object.keys(ops)
        .filter((m) => methods.has(m))
        .map((m) => `${m.toUpperCase()} ${path}`),
    )
    .sort()
}

/** Opens `/docs` and waits until Swagger UI has rendered the document's operations. */
export async function openDocs(page: Page, baseUrl: string): Promise<void> {
  const failures: string[] = []
  page.on('pageerror', (error) => failures.push(error.message))
  page.on('response', (res) => {
    if (res.status() >= 400 && !res.url().endsWith('.map')) failures.push(`${res.status()} ${res.url()}`)
  })
  await page.goto(`${baseUrl}/docs`)
  await page.waitForSelector('.opblock', { timeout: 30_000 })
  if (failures.length) throw new Error(`the page failed: ${failures.join('; ')}`)
}

/** `METHOD /path` of every operation the page shows. */
export async function renderedOperations(page: Page): Promise<string[]> {
  const ops = await page.$$eval('.opblock', (blocks) =>
    blocks.map((b) => {
      const method = b.querySelector('.opblock-summary-method')?.textContent?.trim() ?? '?'
      const path = b.querySelector('.opblock-summary-path')?.getAttribute('data-path') ?? '?'
      return `${method.toUpperCase()} ${path}`
    }),
  )
  return ops.sort()
}

/**
 * "Try it out" on the operation `METHOD /path` (one without required parameters), as a person does it: open the
 * operation, press "Try it out", then "Execute". Resolves to the status the page shows for the live answer.
 */
export async function tryItOut(page: Page, method: string, path: string): Promise<number> {
  const block = page.locator(`.opblock:has(.opblock-summary-path[data-path="${path}"])`, {
    has: page.locator('.opblock-summary-method', { hasText: new RegExp(`^${method}$`, 'i') }),
  })
  await block.locator('.opblock-summary').first().click()
  await block.locator('button.try-out__btn').click()
  await block.locator('button.execute').click()
  const status = block.locator('.live-responses-table .response .response-col_status').first()
  await status.waitFor({ timeout: 15_000 })
  return Number((await status.textContent())?.trim().split(/\s/)[0])
}

/** Enters `value` for the security scheme `scheme` in Swagger UI's "Authorize" dialog, as a person does. */
export async function authorize(page: Page, scheme: string, value: string): Promise<void> {
  await page.locator('.auth-wrapper button.authorize').first().click()
  const box = page.locator('.modal-ux .auth-container', { hasText: scheme })
  await box.locator('input').first().fill(value)
  await box.locator('button.authorize').click()
  await page.locator('.modal-ux button.btn-done').first().click()
}

/**
 * The test every example runs on its `/docs`: the page renders every operation of the app's `/openapi.json`, and
 * "Try it out" on GET /healthz answers 200; `more` goes on with the same page (an example's own clicks). Skipped
 * where Chromium is not installed (outside CI).
 */
export function describeDocsPage(
  start: () => Promise<{ url: string; close(): Promise<void> }>,
  more?: { title: string; run(page: Page, url: string): Promise<void> },
): void {
  describe.runIf(browserTested('/docs'))(`GET /docs in Chromium (${CHROMIUM})`, { timeout: 60_000 }, () => {
    let server: { url: string; close(): Promise<void> } | undefined
    const browser = launchChromium()
    beforeAll(async () => {
      server = await start()
    })
    afterAll(async () => {
      await (await browser).close()
      await server?.close()
    })

    it(`renders every operation of /openapi.json, and "Try it out" on GET /healthz answers 200${more ? `; ${more.title}` : ''}`, async () => {
      const url = server!.url
      const doc = await (await fetch(`${url}/openapi.json`)).json()
      const page = await (await browser).newPage()
      await openDocs(page, url)
      const operations = documentOperations(doc)
      expect(operations.length).toBeGreaterThan(7)
      expect(await renderedOperations(page)).toEqual(operations)
      expect(await tryItOut(page, 'GET', '/healthz')).toBe(200)
      await more?.run(page, url)
    })
  })
}
