/** `user_details`: the end user's names and at least one way to reach them. */
import { parseJsonObject } from '../forms/json-part.ts'
import { apiError, required } from '../http/errors.ts'

export interface UserDetails {
  given_names: string
  last_name: string
  email?: string
  phone_number?: string
  dob?: string
  gender?: string
}

export const EMAIL = /^[^\s@]+@[^\s@]+\.[^\s@]+$/
const PHONE = /^\+[1-9]\d{6,14}$/

/** The `user_details` part (JSON text). */
export function readUserDetails(text: string | undefined, options: { contactMessage?: string } = {}): UserDetails {
  if (!text) throw required('user_details')
  const raw = parseJsonObject(text, 'user_details')
  const out: UserDetails = { given_names: name(raw.given_names, 'given_names'), last_name: name(raw.last_name, 'last_name') }
  for (const field of ['email', 'phone_number'] as const) {
    const value = raw[field]
    if (value === undefined || value === null || value === '') continue
    if (typeof value !== 'string' || !(field === 'email' ? EMAIL : PHONE).test(value.trim())) throw apiError(400, `Field '${field}' is invalid.`)
    out[field] = value.trim()
  }
  if (!out.email && !out.phone_number) throw apiError(400, options.contactMessage ?? 'Either email or phone_number is required.')
  for (const field of ['dob', 'gender'] as const) {
    const value = raw[field]
    if (typeof value === 'string' && value.trim()) out[field] = value.trim().slice(0, 64)
  }
  return out
}

function name(value: unknown, field: string): string {
  if (typeof value !== 'string' || !value.trim() || value.length > 256) throw required(`user_details.${field}`)
  return value.trim()
}
