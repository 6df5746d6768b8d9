/**
 * DeepL's two parameter errors, for the rules a type cannot say (the types' own failures are worded by
 * deepl-error.ts): `Parameter 'x' not specified.` and `Value for 'x' not supported.`.
 */
import { HttpError } from 'routeless'

export const notSpecifiedMessage = (name: string) => `Parameter '${name}' not specified.`
export const notSupportedMessage = (name: string) => `Value for '${name}' not supported.`

export function notSpecified(name: string): HttpError {
  return new HttpError(400, notSpecifiedMessage(name))
}

export function notSupported(name: string): HttpError {
  return new HttpError(400, notSupportedMessage(name))
}
