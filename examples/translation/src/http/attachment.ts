/**
 * `Content-Disposition: attachment` for a download, written by the `content-disposition` package: the name quoted and
 * escaped as RFC 6266 says, and one that is not plain ASCII (or holds control characters) also as RFC 5987's
 * `filename*=UTF-8''…`, with an ASCII fallback (`?` for each other character) for clients that do not read it.
 */
import { create } from 'content-disposition'

export function attachment(fileName: string): string {
  return create(fileName)
}
