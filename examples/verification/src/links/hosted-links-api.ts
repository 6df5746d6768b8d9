/** The hosted-link API: create (201), list (paged), fetch and partial update of a partner's links. */
import { created } from 'routeless'
import { randomUUID } from 'node:crypto'
import type { ApiController } from '../http/api-controller.ts'
import { apiError } from '../http/errors.ts'
import { newTypeId } from '../typeid.ts'
import { UserIdTaken, type HostedLink } from './hosted-link-store.ts'
import { readLinkFields, type CreateLinkForm, type UpdateLinkForm } from './link-fields.ts'
import { linkState, linkUrl } from './link-state.ts'

const SINGLE_USE_DAYS = 90

/**
 * A link's ref_id (a UUID).
 * @format uuid
 * @errorMessage refId must be a valid link id
 */
export type LinkRef = string

/** The query of the list. */
export interface LinkListQuery {
  /**
   * 1 to 100, default 1
   * @integer
   * @minimum 1
   * @maximum 100
   * @errorMessage page must be an integer from 1 to 100
   */
  page?: number
  /**
   * 1 to 100, default 25
   * @integer
   * @minimum 1
   * @maximum 100
   * @errorMessage limit must be an integer from 1 to 100
   */
  limit?: number
}

export async function createLink(c: ApiController, form: CreateLinkForm) {
  const fields = readLinkFields(form)
  const isSingleUse = form.is_single_use
  const givenUserId = form.user_id
  if (givenUserId !== undefined && !isSingleUse)
    throw apiError(400, "Field 'user_id' is only allowed on single-use links.")
  const partner = await c.context.partners.find(c.auth.partnerId)
  const now = new Date()
  const link: HostedLink = {
    refId: randomUUID(),
    partnerId: c.auth.partnerId,
    userId: isSingleUse ? (givenUserId ?? newTypeId('user')) : null,
    name: fields.name!,
    description: fields.description ?? null,
    idTypes: fields.idTypes!,
    isSingleUse,
    callbackUrl: fields.callbackUrl ?? partner?.callbackUrl ?? null,
    noticePrivacyPolicyUrl: fields.noticePrivacyPolicyUrl!,
    logoUrl: fields.logoUrl ?? null,
    redirectUrl: fields.redirectUrl ?? null,
    themeColor: fields.themeColor ?? null,
    expiresAt:
      fields.expiresAt ?? (isSingleUse ? new Date(now.getTime() + SINGLE_USE_DAYS * 86_400_000).toISOString() : null),
    partnerParams: fields.partnerParams ?? null,
    isDisabled: false,
    createdAt: now.toISOString(),
    updatedAt: now.toISOString(),
  }
  try {
    await c.context.links.create(link)
  } catch (error) {
    if (error instanceof UserIdTaken) throw apiError(409, 'User ID is taken. Please provide a unique ID.')
    throw error
  }
  return created({
    link: linkUrl(c.context.config.publicUrl, link),
    message: 'Hosted Link created',
    ref_id: link.refId,
    user_id: link.userId,
  })
}

export async function getLink(c: ApiController, refId: LinkRef) {
  return resource(c, await findLink(c, refId))
}

export async function listLinks(c: ApiController, { page = 1, limit = 25 }: LinkListQuery) {
  const { links, total } = await c.context.links.list(c.auth.partnerId, page, limit)
  return {
    links: await Promise.all(links.map((l) => resource(c, l))),
    meta: { current_page: page, limit, total_count: total },
  }
}

export async function updateLink(c: ApiController, refId: LinkRef, form: UpdateLinkForm) {
  const link = await findLink(c, refId)
  const fields = readLinkFields(form)
  const disabled = form.is_disabled
  const updated: HostedLink = {
    ...link,
    ...Object.fromEntries(Object.entries(fields).filter(([, v]) => v !== undefined)),
    ...(disabled !== undefined && { isDisabled: disabled }),
    updatedAt: new Date().toISOString(),
  }
  await c.context.links.update(updated)
  return resource(c, updated)
}

async function findLink(c: ApiController, refId: LinkRef): Promise<HostedLink> {
  const link = await c.context.links.find(c.auth.partnerId, refId.toLowerCase())
  if (!link) throw apiError(404, 'Link not found')
  return link
}

/**
 * The link resource, with read-only `status`, `is_disabled`, `created_at` and job counters added. `callback_url` and
 * `logo_url` are non-nullable strings in the published SmileLinkResource, so they are left out while unset.
 */
async function resource(c: ApiController, l: HostedLink) {
  const counts = await c.context.jobs.countByLink(l.refId)
  return {
    ref_id: l.refId,
    link: linkUrl(c.context.config.publicUrl, l),
    name: l.name,
    description: l.description,
    id_types: l.idTypes,
    is_single_use: l.isSingleUse,
    ...(l.callbackUrl !== null && { callback_url: l.callbackUrl }),
    notice_privacy_policy_url: l.noticePrivacyPolicyUrl,
    ...(l.logoUrl !== null && { logo_url: l.logoUrl }),
    redirect_url: l.redirectUrl,
    theme_color: l.themeColor ?? '#000',
    expires_at: l.expiresAt,
    partner_params: l.partnerParams,
    user_id: l.userId,
    is_disabled: l.isDisabled,
    status: linkState(l, counts.total),
    created_at: l.createdAt,
    updated_at: l.updatedAt,
    total_jobs: counts.total,
    successful_jobs: counts.successful,
    failed_jobs: counts.failed,
  }
}
