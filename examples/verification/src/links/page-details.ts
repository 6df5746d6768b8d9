/**
 * The hosted page's own reading of the end user's details: a person types them, so the page answers in a person's
 * words and shows its form again (the API's `user_details` part is checked by its type instead).
 */
import { HttpError } from 'routeless'
import { readUserDetails, type UserDetails } from '../validation/user-details.ts'
import type { FormValues } from './page-html.ts'

/** The same rules as the `Email` and `PhoneNumber` types of the API's part. */
const EMAIL = /^[^\s@]+@[^\s@]+\.[^\s@]+$/
const PHONE = /^\+[1-9]\d{6,14}$/

export function pageUserDetails(values: FormValues): UserDetails {
  const fail = (message: string) => new HttpError(400, message)
  const given_names = values.given_names?.trim() ?? ''
  const last_name = values.last_name?.trim() ?? ''
  const email = values.email?.trim() || undefined
  const phone_number = values.phone_number?.trim() || undefined
  if (!given_names || given_names.length > 256) throw fail('Enter your given names.')
  if (!last_name || last_name.length > 256) throw fail('Enter your last name.')
  if (email && !EMAIL.test(email)) throw fail('This email address does not look right.')
  if (phone_number && !PHONE.test(phone_number)) throw fail('Give the phone number with + and the country code.')
  return readUserDetails(
    { given_names, last_name, email, phone_number },
    { contactMessage: 'Give an email address or a phone number.' },
  )
}
