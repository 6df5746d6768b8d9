/** Content negotiation on `Accept` by the `negotiator` package: q-values, wildcards and case as RFC 9110 says. */
import Negotiator from 'negotiator'

/** True when the request's `Accept` allows `type` (no header allows anything; `type;q=0` refuses it). */
export function accepts(request: Request, type: string): boolean {
  const accept = request.headers.get('accept')
  return new Negotiator({ headers: accept === null ? {} : { accept } }).mediaType([type]) !== undefined
}
