/** Whether a hosted link can still be used: disabled and expired links cannot, nor a single-use link once used. */
import type { HostedLink } from './hosted-link-store.ts'

export type LinkState = 'active' | 'disabled' | 'expired' | 'used'

export function linkState(link: HostedLink, jobCount: number, now = Date.now()): LinkState {
  if (link.isDisabled) return 'disabled'
  if (link.expiresAt && Date.parse(link.expiresAt) <= now) return 'expired'
  if (link.isSingleUse && jobCount > 0) return 'used'
  return 'active'
}

export function linkUrl(publicUrl: string, link: Pick<HostedLink, 'partnerId' | 'refId'>): string {
  return `${publicUrl}/links/${link.partnerId}/${link.refId}`
}
