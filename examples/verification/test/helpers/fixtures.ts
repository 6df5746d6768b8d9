/** Request bodies and images the tests share. */
import { readFileSync } from 'node:fs'

export const SELFIE = new Uint8Array(readFileSync(new URL('../fixtures/selfie.jpg', import.meta.url)))
export const DOCUMENT_PNG = new Uint8Array(readFileSync(new URL('../fixtures/document.png', import.meta.url)))
export const LIVENESS = Array.from({ length: 6 }, () => SELFIE)
export const NOT_AN_IMAGE = new TextEncoder().encode('GIF89a this is not a jpeg at all, just text pretending')

export const CONSENT = {
  granted: true,
  granted_at: '2026-01-01T00:00:00.000Z',
  notice_language: 'EN',
  notice_privacy_policy_url: 'https://example.com/privacy',
}

export const CLEARWATER = { given_names: 'Amina Fatou', last_name: 'Clearwater', email: 'amina.clearwater@example.com' }

export function person(given: string, last: string): { given_names: string; last_name: string; email: string } {
  return {
    given_names: given,
    last_name: last,
    email: `${given.split(' ')[0]!.toLowerCase()}.${last.toLowerCase()}@example.com`,
  }
}

/** Nothing listens there: deliveries fail fast (connection refused) and are retried in the background. */
export const CALLBACK = 'http://127.0.0.1:9/hook'

export function ekyc(overrides: Record<string, unknown> = {}): Record<string, any> {
  return {
    country: 'NG',
    id_type: 'NIN',
    id_number: '12345678901',
    user_details: CLEARWATER,
    consent: CONSENT,
    callback_url: CALLBACK,
    ...overrides,
  }
}
