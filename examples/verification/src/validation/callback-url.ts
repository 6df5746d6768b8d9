/**
 * Callback targets: http(s) only, no credentials, no fragment, at most 2048 characters. Plain http is allowed so that
 * a local receiver works; the real service wants https.
 */
export function isValidCallbackUrl(value: unknown): value is string {
  if (typeof value !== 'string' || value.length > 2048) return false
  let url: URL
  try {
    url = new URL(value)
  } catch {
    return false
  }
  return (
    (url.protocol === 'https:' || url.protocol === 'http:') &&
    url.hostname !== '' &&
    !url.username &&
    !url.password &&
    !url.hash
  )
}
