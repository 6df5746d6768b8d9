/** `X-DeepL-Reporting-Tag`: one caller-defined tag per request, trimmed and lower-cased, for custom-tag analytics. */
import { HttpError } from 'routeless'

export const MAX_REPORTING_TAG_LENGTH = 256

export function reportingTag(headers: Pick<Headers, 'get'>): string {
  const tag = (headers.get('x-deepl-reporting-tag') ?? '').trim().toLowerCase()
  if ([...tag].length > MAX_REPORTING_TAG_LENGTH) {
    throw new HttpError(400, `Header 'X-DeepL-Reporting-Tag' may have at most ${MAX_REPORTING_TAG_LENGTH} characters.`)
  }
  return tag
}
