/** Errors under /links are pages too: an HTML page with the status, never JSON. Redirects pass through. */
import type { HttpError } from 'routeless'
import { messagePage } from './page-html.ts'

export function renderPageError(error: HttpError): Response | undefined {
  if (error.hasBody) return undefined
  const status = error.status
  const text =
    status === 413
      ? 'The photos are too large. Use smaller images (at most 10 MB together).'
      : status === 404 || status === 405
        ? 'There is no page here.'
        : status >= 500
          ? 'Something went wrong on our side. Please try again.'
          : 'The form could not be read. Please try again.'
  return new Response(messagePage(status >= 500 ? 'Something went wrong' : 'Sorry', text), {
    status,
    headers: { ...Object.fromEntries(error.headers), 'content-type': 'text/html; charset=utf-8' },
  })
}
