/** The translator page in a real browser (headless Chromium through playwright-core): no JavaScript needed. */
import { browserTested, launchChromium } from '@routeless/example-kit/testing'
import type { Browser } from 'playwright-core'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { API_KEY, startServer, type TestServer } from './_server.ts'

describe.runIf(browserTested('the translator page'))('translator page in Chromium', () => {
  let server: TestServer
  let browser: Browser

  beforeAll(async () => {
    server = await startServer()
    browser = await launchChromium()
  })
  afterAll(async () => {
    await browser?.close()
    await server?.close()
  })

  it('translates text picked from the form, with JavaScript disabled', async () => {
    const context = await browser.newContext({ javaScriptEnabled: false })
    const page = await context.newPage()
    const response = await page.goto(`${server.url}/`)
    expect(response!.status()).toBe(200)
    expect(response!.headers()['x-trace-id']).toMatch(/^[0-9a-f]{32}$/)
    await page.fill('#text', 'How are you?')
    await page.selectOption('#target_lang', 'FR')
    await page.selectOption('#formality', 'prefer_less')
    await page.fill('#auth_key', API_KEY)
    await Promise.all([page.waitForNavigation(), page.click('button[type=submit]')])
    expect(await page.textContent('#translation')).toBe('Comment vas-tu ?')
    expect(await page.textContent('#detected')).toBe('EN')
    expect(await page.textContent('#billed')).toBe('12')
    // The form keeps what was chosen.
    expect(await page.inputValue('#text')).toBe('How are you?')
    expect(await page.inputValue('#target_lang')).toBe('FR')
    expect(await page.inputValue('#formality')).toBe('prefer_less')

    await page.fill('#text', 'Danke')
    await page.selectOption('#source_lang', 'DE')
    await page.selectOption('#target_lang', 'ES')
    await Promise.all([page.waitForNavigation(), page.click('button[type=submit]')])
    expect(await page.textContent('#translation')).toBe('Gracias')
    await context.close()
  })

  it('shows errors on the page: a wrong key, and escapes what it echoes', async () => {
    const page = await browser.newPage()
    await page.goto(`${server.url}/`)
    await page.fill('#text', '<script>window.pwned = 1</script>Hello')
    await page.fill('#auth_key', 'wrong-key')
    const [response] = await Promise.all([page.waitForNavigation(), page.click('button[type=submit]')])
    expect(response!.status()).toBe(403)
    expect(await page.textContent('#error')).toMatch(/Authorization failed/)
    expect(await page.inputValue('#text')).toBe('<script>window.pwned = 1</script>Hello')
    expect(await page.evaluate(() => (window as unknown as { pwned?: number }).pwned)).toBeUndefined()
    await page.close()
  })
})
