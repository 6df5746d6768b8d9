/**
 * The guard of a voice job's files: a signature must be sent (`Authorization: DeepL-Signature <signature>`, or
 * `?signature=` in a pre-signed URL) before anything is looked up, so that a request without one is a 401 whether the
 * job exists or not. Which job the signature opens is checked with the job (`VoiceJobs`): a wrong signature and an
 * unknown job are the same 403.
 */
import { describeGuard, type Guard, HttpError } from 'routeless'

export const SIGNATURE_MISSING =
  "Authorization failed: send 'Authorization: DeepL-Signature <signature>' (or ?signature=)."

/** The signature the request carries, from the header or the query; undefined when none. */
export function signatureOf(request: Request, url: URL): string | undefined {
  const header = request.headers.get('authorization')
  return (
    (header ? /^DeepL-Signature\s+(\S+)$/i.exec(header.trim())?.[1] : undefined) ??
    (url.searchParams.get('signature') || undefined)
  )
}

export const jobSignature: Guard = describeGuard(
  (controller) => {
    if (!signatureOf(controller.request, controller.url)) throw new HttpError(401, SIGNATURE_MISSING)
  },
  {
    security: [
      {
        name: 'signature_header',
        scheme: {
          type: 'apiKey',
          in: 'header',
          name: 'Authorization',
          description: "Authorization: DeepL-Signature <signature> (the job's, from POST /v1/jobs/voice/translate)",
        },
      },
      {
        name: 'signature_query',
        scheme: {
          type: 'apiKey',
          in: 'query',
          name: 'signature',
          description: 'The same signature, in a pre-signed URL',
        },
      },
    ],
    refuses: [401, 403],
  },
)
