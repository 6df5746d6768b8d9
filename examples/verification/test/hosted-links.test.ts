import { readFileSync } from 'node:fs'
import { fileURLToPath } from 'node:url'
import { chromium, type Browser } from 'playwright-core'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { V3Client } from './helpers/client.ts'
import { startReceiver } from './helpers/receiver.ts'
import { API_KEY, PARTNER_ID, startServer, type TestServer } from './helpers/server.ts'

let server: TestServer
let client: V3Client

beforeAll(async () => {
  server = await startServer()
  client = new V3Client(server.url, PARTNER_ID, API_KEY)
})
afterAll(() => server.close())

const ID_TYPES = [
  { country: 'NG', id_type: 'NIN', verification_method: 'biometric_kyc' },
  { country: 'NG', id_type: 'PASSPORT', verification_method: 'doc_verification' },
]
const link = (o: Record<string, unknown> = {}) => ({
  id_types: ID_TYPES,
  name: 'Open an account',
  notice_privacy_policy_url: 'https://example.com/privacy',
  is_single_use: 'false',
  ...o,
})

describe('hosted links API', () => {
  it('creates, fetches, lists and updates a link', async () => {
    const created = await client.post(
      '/v3/hosted_links',
      link({ description: 'KYC for new customers', theme_color: '#0a7', partner_params: { campaign: 'spring' } }),
    )
    expect(created.status).toBe(201)
    expect(Object.keys(created.body).sort()).toEqual(['link', 'message', 'ref_id', 'user_id'])
    expect(created.body).toMatchObject({
      message: 'Hosted Link created',
      user_id: null,
      link: `${server.url}/links/${PARTNER_ID}/${created.body.ref_id}`,
    })
    const fetched = await client.get(`/v3/hosted_links/${created.body.ref_id}`)
    expect(fetched.body).toMatchObject({
      ref_id: created.body.ref_id,
      name: 'Open an account',
      description: 'KYC for new customers',
      id_types: ID_TYPES,
      is_single_use: false,
      theme_color: '#0a7',
      partner_params: { campaign: 'spring' },
      expires_at: null,
      user_id: null,
      is_disabled: false,
      status: 'active',
      total_jobs: 0,
    })
    expect(fetched.body).not.toHaveProperty('logo_url')
    expect(fetched.body).not.toHaveProperty('callback_url')
    const withLogo = await client.put(`/v3/hosted_links/${created.body.ref_id}`, {
      logo_url: 'https://example.com/logo.png',
      callback_url: 'https://partner.example/hook',
    })
    expect(withLogo.body).toMatchObject({
      logo_url: 'https://example.com/logo.png',
      callback_url: 'https://partner.example/hook',
    })
    const updated = await client.put(`/v3/hosted_links/${created.body.ref_id}`, {
      name: 'Renamed',
      is_disabled: 'true',
    })
    expect(updated.status).toBe(200)
    expect(updated.body).toMatchObject({
      name: 'Renamed',
      description: 'KYC for new customers',
      is_disabled: true,
      status: 'disabled',
    })
    const list = await client.get('/v3/hosted_links?limit=1')
    expect(list.body.meta).toMatchObject({ current_page: 1, limit: 1 })
    expect(list.body.meta.total_count).toBeGreaterThanOrEqual(1)
    expect(list.body.links).toHaveLength(1)
  })

  it('gives single-use links a user id and a 90-day expiry, and refuses a taken user id', async () => {
    const a = await client.post('/v3/hosted_links', link({ is_single_use: 'true', user_id: 'link-user-1' }))
    expect(a.body.user_id).toBe('link-user-1')
    const fetched = await client.get(`/v3/hosted_links/${a.body.ref_id}`)
    const days = (Date.parse(fetched.body.expires_at) - Date.now()) / 86_400_000
    expect(days).toBeGreaterThan(89.9)
    expect(days).toBeLessThan(90.1)
    const taken = await client.post('/v3/hosted_links', link({ is_single_use: 'true', user_id: 'link-user-1' }))
    expect(taken.status).toBe(409)
    expect(taken.body.message).toBe('User ID is taken. Please provide a unique ID.')
    const minted = await client.post('/v3/hosted_links', link({ is_single_use: 'true' }))
    expect(minted.body.user_id).toMatch(/^user_/)
  })

  it.each([
    ['no name', link({ name: undefined }), "Required field 'name' is missing or invalid."],
    ['no id_types', link({ id_types: undefined }), "Required field 'id_types' is missing or invalid."],
    ['empty id_types', link({ id_types: [] }), "Required field 'id_types' is missing or invalid."],
    [
      'extra id_types property',
      link({ id_types: [{ ...ID_TYPES[0], extra: 1 }] }),
      "Required field 'id_types' is missing or invalid.",
    ],
    [
      'unknown method',
      link({ id_types: [{ country: 'NG', id_type: 'NIN', verification_method: 'telepathy' }] }),
      "Required field 'id_types' is missing or invalid.",
    ],
    [
      'type not enabled for method',
      link({ id_types: [{ country: 'NG', id_type: 'BANK_ACCOUNT', verification_method: 'biometric_kyc' }] }),
      'ID type BANK_ACCOUNT is not enabled for biometric_kyc in NG.',
    ],
    [
      'no privacy notice',
      link({ notice_privacy_policy_url: undefined }),
      "Required field 'notice_privacy_policy_url' is missing or invalid.",
    ],
    ['no is_single_use', link({ is_single_use: undefined }), "Required field 'is_single_use' is missing or invalid."],
    ['user_id on a multi-use link', link({ user_id: 'x' }), "Field 'user_id' is only allowed on single-use links."],
    ['bad theme color', link({ theme_color: 'red' }), "Field 'theme_color' is invalid."],
    ['http logo', link({ logo_url: 'http://example.com/logo.png' }), "Field 'logo_url' is invalid."],
    ['bad expires_at', link({ expires_at: 'tomorrow' }), "Field 'expires_at' is invalid."],
  ])('%s → 400', async (_n, fields, message) => {
    const res = await client.post('/v3/hosted_links', fields)
    expect(res.status).toBe(400)
    expect(res.body.message).toBe(message)
  })

  it('answers 400 for a malformed refId, 404 for an unknown or foreign one, and refuses changing fixed fields', async () => {
    expect((await client.get('/v3/hosted_links/not-a-uuid')).body).toEqual({
      status: 'Bad Request',
      message: 'refId must be a valid link id',
    })
    expect((await client.get('/v3/hosted_links/00000000-0000-4000-8000-000000000000')).body).toEqual({
      status: 'Not Found',
      message: 'Link not found',
    })
    const created = await client.post('/v3/hosted_links', link())
    await server.services.partners.upsert('4321', 'Other', null)
    await server.services.partners.addKey('4321', 'other-partner-key')
    const other = new V3Client(server.url, '4321', 'other-partner-key')
    expect((await other.get(`/v3/hosted_links/${created.body.ref_id}`)).status).toBe(404)
    const fixed = await client.put(`/v3/hosted_links/${created.body.ref_id}`, { is_single_use: 'true' })
    expect(fixed.body.message).toBe("Field 'is_single_use' cannot be changed.")
  })
})

describe('hosted verification page: what a person types', () => {
  const image = (name: string, type: string) =>
    new Blob([readFileSync(new URL(`./fixtures/${name}`, import.meta.url))], { type })
  const submit = async (url: string, fields: Record<string, string>) => {
    const form = new FormData()
    for (const [k, v] of Object.entries({ choice: '0', consent: 'granted', id_number: '12345678901', ...fields }))
      form.append(k, v)
    form.append('selfie_image', image('selfie.jpg', 'image/jpeg'), 'selfie.jpg')
    form.append('document', image('document.png', 'image/png'), 'document.png')
    const res = await fetch(url, { method: 'POST', body: form, redirect: 'manual' })
    return { status: res.status, alert: /role="alert">([^<]*)</.exec(await res.text())?.[1] }
  }

  it.each([
    [
      'no given names',
      { given_names: ' ', last_name: 'Clearwater', email: 'a@example.com' },
      'Enter your given names.',
    ],
    ['no last name', { given_names: 'Amina', last_name: '', email: 'a@example.com' }, 'Enter your last name.'],
    [
      'a malformed email',
      { given_names: 'Amina', last_name: 'Clearwater', email: 'amina@' },
      'This email address does not look right.',
    ],
    [
      'a phone number without its country code',
      { given_names: 'Amina', last_name: 'Clearwater', phone_number: '0803 123 4567' },
      'Give the phone number with + and the country code.',
    ],
    [
      'neither email nor phone',
      { given_names: 'Amina', last_name: 'Clearwater' },
      'Give an email address or a phone number.',
    ],
  ])('shows the form again for %s, in words for a person', async (_n, fields, message) => {
    const created = await client.post('/v3/hosted_links', link())
    expect(await submit(created.body.link, fields)).toEqual({ status: 400, alert: message })
  })

  it('accepts trimmed details and redirects to the result page', async () => {
    const created = await client.post('/v3/hosted_links', link())
    const res = await submit(created.body.link, {
      given_names: ' Amina ',
      last_name: 'Clearwater',
      phone_number: ' +2348012345678 ',
    })
    expect(res.status).toBe(303)
  })
})

describe('hosted verification page in Chromium', () => {
  let browser: Browser
  beforeAll(async () => {
    browser = await chromium.launch({
      executablePath: '/usr/bin/chromium',
      args: [
        '--headless',
        '--no-sandbox',
        '--disable-gpu',
        '--disable-background-networking',
        '--disable-component-update',
        '--disable-sync',
        '--no-first-run',
      ],
    })
  })
  afterAll(() => browser?.close())

  const fixture = (name: string) => fileURLToPath(new URL(`./fixtures/${name}`, import.meta.url))

  it('lets an end user enter details, upload a selfie and a document, and see the outcome; the callback follows', async () => {
    const receiver = await startReceiver()
    const page = await browser.newPage({ viewport: { width: 390, height: 844 }, isMobile: true })
    try {
      const created = await client.post(
        '/v3/hosted_links',
        link({
          is_single_use: 'true',
          user_id: 'page-user',
          callback_url: receiver.url,
          redirect_url: 'https://shop.example/done',
          partner_params: { campaign: 'browser' },
        }),
      )
      await page.goto(created.body.link)
      expect(await page.title()).toBe('Open an account')
      expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390)

      await page.selectOption('#choice', '0')
      await page.fill('#given_names', 'Amina Fatou')
      await page.fill('#last_name', 'Clearwater')
      await page.fill('#email', 'amina.clearwater@example.com')
      await page.fill('#id_number', '123')
      await page.setInputFiles('#selfie_image', fixture('selfie.jpg'))
      await page.setInputFiles('#document', fixture('document.png'))
      await page.check('input[name=consent]')
      await page.click('button[type=submit]')
      await expect
        .poll(() => page.textContent('[role=alert]'))
        .toBe('This ID number does not look right for the chosen document.')
      expect(await page.inputValue('#given_names')).toBe('Amina Fatou')

      await page.fill('#id_number', '12345678901')
      await page.setInputFiles('#selfie_image', fixture('selfie.jpg'))
      await page.setInputFiles('#document', fixture('document.png'))
      await page.check('input[name=consent]')
      await page.click('button[type=submit]')
      await page.waitForSelector('.outcome[data-status=clear]', { timeout: 10_000 })
      expect(await page.textContent('h1')).toBe('You are verified')
      expect(await page.getAttribute('a.button', 'href')).toMatch(
        /^https:\/\/shop\.example\/done\?job_id=job_[0-9a-z]{26}&status=clear$/,
      )

      const [callback] = await receiver.waitFor(1)
      const body = JSON.parse(callback!.body)
      expect(body).toMatchObject({
        user_id: 'page-user',
        product: 'biometric_kyc',
        status: 'clear',
        hosted_link: created.body.ref_id,
        partner_params: { campaign: 'browser' },
      })
      const after = await client.get(`/v3/hosted_links/${created.body.ref_id}`)
      expect(after.body).toMatchObject({ total_jobs: 1, successful_jobs: 1, status: 'used' })

      const again = await page.goto(created.body.link)
      expect(again!.status()).toBe(410)
      expect(await page.textContent('h1')).toBe('Link already used')
    } finally {
      await page.close()
      await receiver.close()
    }
  })

  it('says when a link is disabled, expired or unknown', async () => {
    const page = await browser.newPage()
    try {
      const disabled = await client.post('/v3/hosted_links', link())
      await client.put(`/v3/hosted_links/${disabled.body.ref_id}`, { is_disabled: 'true' })
      expect((await page.goto(disabled.body.link))!.status()).toBe(410)
      expect(await page.textContent('h1')).toBe('Link disabled')

      const expired = await client.post(
        '/v3/hosted_links',
        link({ expires_at: new Date(Date.now() - 1000).toISOString() }),
      )
      expect((await page.goto(expired.body.link))!.status()).toBe(410)
      expect(await page.textContent('h1')).toBe('Link expired')

      expect(
        (await page.goto(`${server.url}/links/${PARTNER_ID}/00000000-0000-4000-8000-000000000000`))!.status(),
      ).toBe(404)
      expect(await page.textContent('h1')).toBe('Link not found')
    } finally {
      await page.close()
    }
  })
})
