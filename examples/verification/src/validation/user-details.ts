/**
 * `user_details`: the end user's names and at least one way to reach them. The part's shape and each field's format
 * are its type (routeless reads the part's JSON and checks it); the rule between fields is here.
 */
import { apiError } from '../http/errors.ts'

/**
 * A name: not blank, at most 256 characters.
 * @maxLength 256
 * @pattern \S
 */
export type PersonName = string

/**
 * An email address; empty or null: not given.
 * @maxLength 320
 * @pattern ^\s*([^\s@]+@[^\s@]+\.[^\s@]+\s*)?$
 * @errorMessage Field 'email' is invalid.
 */
export type Email = string

/**
 * A phone number in E.164 form (`+` and the country code); empty or null: not given.
 * @pattern ^\s*(\+[1-9]\d{6,14}\s*)?$
 * @errorMessage Field 'phone_number' is invalid.
 */
export type PhoneNumber = string

/** The `user_details` part as the SDKs send it (members it does not name are ignored). */
export interface UserDetailsPart {
  given_names: PersonName
  last_name: PersonName
  email?: Email | null
  phone_number?: PhoneNumber | null
  /** As given (kept to 64 characters) */
  dob?: string | null
  /** As given (kept to 64 characters) */
  gender?: string | null
  [member: string]: unknown
}

/** The user details a job keeps. */
export interface UserDetails {
  given_names: string
  last_name: string
  email?: string
  phone_number?: string
  dob?: string
  gender?: string
}

/** The details, trimmed; at least one of email and phone number (`contactMessage` words the refusal). */
export function readUserDetails(part: UserDetailsPart, options: { contactMessage?: string } = {}): UserDetails {
  const out: UserDetails = { given_names: part.given_names.trim(), last_name: part.last_name.trim() }
  for (const field of ['email', 'phone_number', 'dob', 'gender'] as const) {
    const value = part[field]?.trim()
    if (value) out[field] = field === 'dob' || field === 'gender' ? value.slice(0, 64) : value
  }
  if (!out.email && !out.phone_number)
    throw apiError(400, options.contactMessage ?? 'Either email or phone_number is required.')
  return out
}
