/** `partner_params` (string values, echoed on results) and `metadata` (name/value pairs). */
import { parseJsonArray, parseJsonObject } from '../forms/json-part.ts'
import { invalid } from '../http/errors.ts'

/** Keys the service keeps for itself; they are never echoed back. */
export const INTERNAL_PARTNER_PARAMS = ['_sandbox_v3', 'job_id', 'job_type', 'user_id']

/** The `partner_params` part (JSON text), when sent. */
export function readPartnerParams(text: string | undefined): Record<string, string> | undefined {
  return text ? checkPartnerParams(parseJsonObject(text, 'partner_params')) : undefined
}

export function checkPartnerParams(raw: Record<string, unknown>): Record<string, string> {
  const entries = Object.entries(raw)
  if (entries.length > 50) throw invalid('partner_params')
  const out: Record<string, string> = {}
  for (const [key, value] of entries) {
    if (key === '__proto__' || key.length > 100) throw invalid('partner_params')
    if (typeof value === 'string') out[key] = value.slice(0, 1000)
    else if (typeof value === 'number' || typeof value === 'boolean') out[key] = String(value)
    else throw invalid('partner_params')
  }
  return out
}

/** What is echoed on results: the partner's own keys, or null when none are left. */
export function echoedPartnerParams(params: Record<string, string> | undefined): Record<string, string> | null {
  if (!params) return null
  const out = Object.fromEntries(Object.entries(params).filter(([k]) => !INTERNAL_PARTNER_PARAMS.includes(k)))
  return Object.keys(out).length ? out : null
}

export interface MetadataEntry {
  name: string
  value: string
}

/** The `metadata` part (JSON text), when sent. */
export function readMetadata(text: string | undefined): MetadataEntry[] | undefined {
  if (!text) return undefined
  const raw = parseJsonArray(text, 'metadata')
  if (raw.length > 50) throw invalid('metadata')
  return raw.map((entry) => {
    if (typeof entry !== 'object' || entry === null || Array.isArray(entry)) throw invalid('metadata')
    const { name, value } = entry as Record<string, unknown>
    if (typeof name !== 'string' || !name || name.length > 100) throw invalid('metadata')
    const text = typeof value === 'string' ? value : JSON.stringify(value ?? null)
    if (text.length > 1000) throw invalid('metadata')
    return { name, value: text }
  })
}
