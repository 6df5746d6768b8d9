/** Hosted verification links: stored per partner, listed newest first, updated in part. */
import { isUniqueViolation } from '@routeless/example-kit'
import type { Kysely } from 'kysely'
import type { Database, HostedLinkTable } from '../storage/schema.ts'

export interface LinkIdType {
  country: string
  id_type: string
  verification_method: string
}

export interface HostedLink {
  refId: string
  partnerId: string
  userId: string | null
  name: string
  description: string | null
  idTypes: LinkIdType[]
  isSingleUse: boolean
  callbackUrl: string | null
  noticePrivacyPolicyUrl: string
  logoUrl: string | null
  redirectUrl: string | null
  themeColor: string | null
  expiresAt: string | null
  partnerParams: Record<string, string> | null
  isDisabled: boolean
  createdAt: string
  updatedAt: string
}

export class UserIdTaken extends Error {}

export class HostedLinkStore {
  constructor(private readonly db: Kysely<Database>) {}

  async create(link: HostedLink): Promise<void> {
    try {
      await this.db.insertInto('hosted_links').values(toRow(link)).execute()
    } catch (error) {
      if (isUniqueViolation(error) && link.userId) throw new UserIdTaken()
      throw error
    }
  }

  async update(link: HostedLink): Promise<void> {
    const { ref_id, partner_id, created_at, ...rest } = toRow(link)
    await this.db
      .updateTable('hosted_links')
      .set(rest)
      .where('ref_id', '=', ref_id)
      .where('partner_id', '=', partner_id)
      .execute()
  }

  async find(partnerId: string, refId: string): Promise<HostedLink | undefined> {
    const row = await this.db
      .selectFrom('hosted_links')
      .selectAll()
      .where('ref_id', '=', refId)
      .where('partner_id', '=', partnerId)
      .executeTakeFirst()
    return row ? fromRow(row) : undefined
  }

  async list(partnerId: string, page: number, limit: number): Promise<{ links: HostedLink[]; total: number }> {
    const rows = await this.db
      .selectFrom('hosted_links')
      .selectAll()
      .where('partner_id', '=', partnerId)
      .orderBy('created_at', 'desc')
      .orderBy('ref_id')
      .limit(limit)
      .offset((page - 1) * limit)
      .execute()
    const count = await this.db
      .selectFrom('hosted_links')
      .select((eb) => eb.fn.countAll().as('n'))
      .where('partner_id', '=', partnerId)
      .executeTakeFirstOrThrow()
    return { links: rows.map(fromRow), total: Number(count.n) }
  }
}

function toRow(l: HostedLink): HostedLinkTable {
  return {
    ref_id: l.refId,
    partner_id: l.partnerId,
    user_id: l.userId,
    name: l.name,
    description: l.description,
    id_types: JSON.stringify(l.idTypes),
    is_single_use: l.isSingleUse ? 1 : 0,
    callback_url: l.callbackUrl,
    notice_privacy_policy_url: l.noticePrivacyPolicyUrl,
    logo_url: l.logoUrl,
    redirect_url: l.redirectUrl,
    theme_color: l.themeColor,
    expires_at: l.expiresAt,
    partner_params: l.partnerParams ? JSON.stringify(l.partnerParams) : null,
    is_disabled: l.isDisabled ? 1 : 0,
    created_at: l.createdAt,
    updated_at: l.updatedAt,
  }
}

function fromRow(r: HostedLinkTable): HostedLink {
  return {
    refId: r.ref_id,
    partnerId: r.partner_id,
    userId: r.user_id,
    name: r.name,
    description: r.description,
    idTypes: JSON.parse(r.id_types),
    isSingleUse: Number(r.is_single_use) === 1,
    callbackUrl: r.callback_url,
    noticePrivacyPolicyUrl: r.notice_privacy_policy_url,
    logoUrl: r.logo_url,
    redirectUrl: r.redirect_url,
    themeColor: r.theme_color,
    expiresAt: r.expires_at,
    partnerParams: r.partner_params ? JSON.parse(r.partner_params) : null,
    isDisabled: Number(r.is_disabled) === 1,
    createdAt: r.created_at,
    updatedAt: r.updated_at,
  }
}
