/** `consent`: the end user's recorded consent, all four fields required. */
import { parseJsonObject } from '../forms/json-part.ts'
import { apiError, required } from '../http/errors.ts'

export interface Consent {
  granted: true
  granted_at: string
  notice_language: string
  notice_privacy_policy_url: string
}

const ISO_DATE_TIME = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2}(\.\d{1,9})?)?(Z|[+-]\d{2}:\d{2})$/

/** Parses and checks a consent object (from a form part, or a value already decoded). */
export function checkConsent(raw: Record<string, unknown>, now = Date.now()): Consent {
  if (raw.granted !== true) throw required('consent.granted')
  const grantedAt = raw.granted_at
  if (typeof grantedAt !== 'string' || !ISO_DATE_TIME.test(grantedAt) || Number.isNaN(Date.parse(grantedAt))) throw required('consent.granted_at')
  if (Date.parse(grantedAt) > now + 60_000) throw apiError(400, "Required field 'consent.granted_at' cannot be set in the future.")
  if (typeof raw.notice_language !== 'string' || !/^[A-Z]{2}$/.test(raw.notice_language)) throw required('consent.notice_language')
  if (!isHttpsUrl(raw.notice_privacy_policy_url)) throw required('consent.notice_privacy_policy_url')
  return { granted: true, granted_at: grantedAt, notice_language: raw.notice_language, notice_privacy_policy_url: raw.notice_privacy_policy_url as string }
}

/** The `consent` part (JSON text). */
export function readConsent(text: string | undefined): Consent {
  if (!text) throw apiError(400, 'consent is required')
  return checkConsent(parseJsonObject(text, 'consent'))
}

export function isHttpsUrl(value: unknown): value is string {
  if (typeof value !== 'string' || value.length > 2048) return false
  try {
    const url = new URL(value)
    return url.protocol === 'https:' && url.hostname !== ''
  } catch {
    return false
  }
}
