/**
 * CORS for browser clients, as routeless configuration: `CORS_ORIGINS` lists the allowed origins (comma-separated,
 * `*` for any). Browsers may send the `Authorization` and `X-DeepL-Reporting-Tag` headers and read `X-Trace-ID` and
 * `Retry-After`. No credentials mode: the API key travels in a header, not a cookie.
 */
import type { CorsOptions } from 'routeless'

export function corsOptions(origins: string[]): CorsOptions | undefined {
  if (origins.length === 0) return undefined
  return {
    origins: origins.includes('*') ? '*' : origins,
    allowHeaders: ['Authorization', 'Content-Type', 'X-DeepL-Reporting-Tag'],
    exposeHeaders: [
      'X-Trace-ID',
      'Retry-After',
      'RateLimit-Limit',
      'RateLimit-Remaining',
      'RateLimit-Reset',
      'Content-Disposition',
    ],
  }
}
