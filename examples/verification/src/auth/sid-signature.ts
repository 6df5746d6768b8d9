/**
 * The `sid_request` signature Smile ID uses on legacy requests, sync responses and webhooks:
 * Base64(HMAC-SHA256(key = API key, message = timestamp ‖ partner_id ‖ "sid_request")). It covers the timestamp and
 * partner id only, not the body: it proves who sent a message, not what the message says.
 */
import { createHmac, timingSafeEqual } from 'node:crypto'

export function sidSignature(apiKey: string, partnerId: string, timestamp: string): string {
  return createHmac('sha256', apiKey)
    .update(`${timestamp + partnerId}sid_request`, 'utf8')
    .digest('base64')
}

/** Recomputes and compares in constant time (both sides base64-decoded, as the SDKs do). */
export function confirmSidSignature(apiKey: string, partnerId: string, timestamp: string, signature: string): boolean {
  const expected = Buffer.from(sidSignature(apiKey, partnerId, timestamp), 'base64')
  const actual = Buffer.from(signature, 'base64')
  return actual.length === expected.length && timingSafeEqual(actual, expected)
}

/** The two response/webhook headers: `Response-Timestamp` and `Response-Signature`. */
export function signatureHeaders(apiKey: string, partnerId: string, now = new Date()): Record<string, string> {
  const timestamp = now.toISOString()
  return { 'Response-Timestamp': timestamp, 'Response-Signature': sidSignature(apiKey, partnerId, timestamp) }
}
