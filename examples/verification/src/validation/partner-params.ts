/**
 * `partner_params` (values echoed on results) and `metadata` (name/value pairs). Their shapes are types; what is
 * kept of them is here.
 */
import { invalid } from '../http/errors.ts'

/** Keys the service keeps for itself; they are never echoed back. */
export const INTERNAL_PARTNER_PARAMS = ['_sandbox_v3', 'job_id', 'job_type', 'user_id']

/**
 * A partner param's value: text, or a number or a boolean (kept as text).
 * @errorMessage Field 'partner_params' is invalid.
 */
export type PartnerParamValue = string | number | boolean

/**
 * The `partner_params` part: at most 50 keys.
 * @maxProperties 50
 */
export type PartnerParams = Record<string, PartnerParamValue>

/** The params a job keeps: text values (cut to 1,000 characters), keys of at most 100 characters. */
export function readPartnerParams(params: PartnerParams): Record<string, string> {
  const out: Record<string, string> = {}
  for (const [key, value] of Object.entries(params)) {
    // JSON.parse makes `__proto__` an own key; assigning it here would replace out's prototype.
    if (key === '__proto__' || key.length > 100) throw invalid('partner_params')
    out[key] = String(value).slice(0, 1000)
  }
  return out
}

/** What is echoed on results: the partner's own keys, or null when none are left. */
export function echoedPartnerParams(params: Record<string, string> | undefined): Record<string, string> | null {
  if (!params) return null
  const out = Object.fromEntries(Object.entries(params).filter(([k]) => !INTERNAL_PARTNER_PARAMS.includes(k)))
  return Object.keys(out).length ? out : null
}

/**
 * One `metadata` entry: a name and any JSON value (kept as text).
 * @errorMessage Field 'metadata' is invalid.
 */
export interface MetadataItem {
  /**
   * @minLength 1
   * @maxLength 100
   */
  name: string
  value?: unknown
}

/**
 * The `metadata` part: at most 50 entries.
 * @maxItems 50
 * @errorMessage Field 'metadata' is invalid.
 */
export type Metadata = MetadataItem[]

export interface MetadataEntry {
  name: string
  value: string
}

/** The entries a job keeps: each value as text of at most 1,000 characters. */
export function readMetadata(items: Metadata): MetadataEntry[] {
  return items.map(({ name, value }) => {
    const text = typeof value === 'string' ? value : JSON.stringify(value ?? null)
    if (text.length > 1000) throw invalid('metadata')
    return { name, value: text }
  })
}
