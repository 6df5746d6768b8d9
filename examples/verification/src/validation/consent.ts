/** `consent`: the end user's recorded consent, all four fields required. Its shape is the type; the clock is here. */
import type { HttpsUrl } from '../forms/field-types.ts'
import { apiError, required } from '../http/errors.ts'

/**
 * When consent was given: an ISO 8601 date-time with its offset.
 * @pattern ^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2}(\.\d{1,9})?)?(Z|[+-]\d{2}:\d{2})$
 */
export type ConsentTime = string

/** The `consent` part (members it does not name are ignored). */
export interface ConsentPart {
  granted: true
  granted_at: ConsentTime
  /**
   * The notice's language: two capital letters
   * @pattern ^[A-Z]{2}$
   */
  notice_language: string
  notice_privacy_policy_url: HttpsUrl
  [member: string]: unknown
}

export interface Consent {
  granted: true
  granted_at: string
  notice_language: string
  notice_privacy_policy_url: string
}

/** The consent a job keeps: given at a real moment, not in the future (a minute's clock skew allowed). */
export function readConsent(part: ConsentPart, now = Date.now()): Consent {
  const at = Date.parse(part.granted_at)
  if (Number.isNaN(at) || !isCalendarDay(part.granted_at.slice(0, 10))) throw required('consent.granted_at')
  if (at > now + 60_000) throw apiError(400, "Required field 'consent.granted_at' cannot be set in the future.")
  const { granted, granted_at, notice_language, notice_privacy_policy_url } = part
  return { granted, granted_at, notice_language, notice_privacy_policy_url }
}

/** `2024-02-30` has the shape of a day but is none (Date.parse rolls it over to March 1st). */
function isCalendarDay(ymd: string): boolean {
  const [y, m, d] = ymd.split('-').map(Number) as [number, number, number]
  const day = new Date(Date.UTC(y, m - 1, d))
  return day.getUTCFullYear() === y && day.getUTCMonth() === m - 1 && day.getUTCDate() === d
}
