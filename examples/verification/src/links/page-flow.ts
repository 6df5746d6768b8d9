/**
 * The hosted verification page: GET shows the form (or why the link cannot be used), POST turns the end user's
 * details and images into a job and redirects (303) to its result page, which refreshes until the job is decided.
 */
import { readImage } from '../forms/images.ts'
import type { Kwargs as Form } from 'routeless'
import { HttpError, isHttpError, Redirect, type Controller } from 'routeless'
import type { Product } from '../jobs/products.ts'
import type { JobRequest } from '../jobs/job-request.ts'
import { findIdType, matchesIdNumber } from '../reference/id-types.ts'
import { isInvalidFormatTestNumber } from '../sandbox/decide.ts'
import type { Services } from '../services.ts'
import { newTypeId } from '../typeid.ts'
import type { HostedLink } from './hosted-link-store.ts'
import { LinkAlreadyUsed } from '../jobs/job-store.ts'
import { linkState } from './link-state.ts'
import { pageUserDetails } from './page-details.ts'
import { formPage, messagePage, resultPage, type FormValues } from './page-html.ts'

type Page = Controller<Services>

const PRODUCT_OF: Record<string, Product> = {
  biometric_kyc: 'biometric_kyc',
  doc_verification: 'document_verification',
  enhanced_document_verification: 'enhanced_document_verification',
  enhanced_kyc: 'enhanced_kyc',
}

const STATE_TEXT = {
  disabled: ['Link disabled', 'This verification link is no longer active.'],
  expired: ['Link expired', 'This verification link has expired. Ask for a new one.'],
  used: ['Link already used', 'This verification link has already been used.'],
} as const

function html(body: string, status = 200): Response {
  return new Response(body, {
    status,
    headers: { 'content-type': 'text/html; charset=utf-8', 'cache-control': 'no-store' },
  })
}

async function findLink(c: Page, partnerId: string, refId: string): Promise<HostedLink | undefined> {
  if (!/^[0-9a-f-]{36}$/i.test(refId) || !/^\d{1,18}$/.test(partnerId)) return undefined
  return c.context.links.find(partnerId, refId.toLowerCase())
}

/** The link's page, or a page saying why it cannot be used (404, 410). */
async function usableLink(c: Page, partnerId: string, refId: string): Promise<HostedLink | Response> {
  const link = await findLink(c, partnerId, refId)
  if (!link) return html(messagePage('Link not found', 'This verification link does not exist.'), 404)
  const state = linkState(link, (await c.context.jobs.countByLink(link.refId)).total)
  if (state !== 'active') return html(messagePage(STATE_TEXT[state][0], STATE_TEXT[state][1], link), 410)
  return link
}

export async function showForm(c: Page, partnerId: string, refId: string): Promise<Response> {
  const link = await usableLink(c, partnerId, refId)
  return link instanceof Response ? link : html(formPage(link, c.url.pathname))
}

export async function submitForm(c: Page, partnerId: string, refId: string): Promise<Response> {
  const link = await usableLink(c, partnerId, refId)
  if (link instanceof Response) return link
  const form = (c.body ?? {}) as Form
  const values: FormValues = Object.fromEntries(
    (['choice', 'given_names', 'last_name', 'email', 'phone_number', 'id_number'] as const).map((k) => [
      k,
      typeof form[k] === 'string' ? form[k] : undefined,
    ]),
  )
  let jobId: string
  try {
    jobId = await createPageJob(c, link, form, values)
  } catch (error) {
    if (error instanceof LinkAlreadyUsed) return html(messagePage(STATE_TEXT.used[0], STATE_TEXT.used[1], link), 410)
    if (!isHttpError(error) || error.status >= 500) throw error
    return html(formPage(link, c.url.pathname, values, error.message), error.status)
  }
  throw new Redirect(`${c.url.pathname.replace(/\/+$/, '')}/${jobId}`, 303)
}

async function createPageJob(c: Page, link: HostedLink, form: Form, values: FormValues): Promise<string> {
  const fail = (message: string) => new HttpError(400, message)
  const choice = link.idTypes[Number(values.choice ?? '0')]
  if (!choice) throw fail('Choose a document.')
  if (form.consent !== 'granted') throw fail('Please agree to the privacy notice to continue.')
  const user_details = pageUserDetails(values)
  const product = PRODUCT_OF[choice.verification_method]!
  const idNumber = values.id_number?.trim()
  const type = findIdType(choice.country, choice.id_type)
  if (product !== 'document_verification' || idNumber) {
    if (!idNumber) throw fail('Enter your ID number.')
    if (type && !matchesIdNumber(type, idNumber))
      throw fail('This ID number does not look right for the chosen document.')
  }
  const max = c.context.config.imageMaxBytes
  const selfie = form.selfie_image instanceof File && form.selfie_image.size > 0 ? form.selfie_image : undefined
  const document = form.document instanceof File && form.document.size > 0 ? form.document : undefined
  if (!selfie) throw fail('Add a selfie.')
  if (!document) throw fail('Add a photo of your document.')
  const images = [
    await readImage(selfie, 'selfie_image', {
      formats: ['jpeg', 'png'],
      maxBytes: max,
      message: 'The selfie must be a JPEG or PNG photo.',
    }),
    await readImage(document, 'document', {
      formats: ['jpeg', 'png'],
      maxBytes: max,
      message: 'The document photo must be a JPEG or PNG image.',
    }),
  ]
  const request: JobRequest = {
    user_details,
    consent: {
      granted: true,
      granted_at: new Date().toISOString(),
      notice_language: 'EN',
      notice_privacy_policy_url: link.noticePrivacyPolicyUrl,
    },
    country: choice.country,
    id_type: choice.id_type,
    ...(idNumber && { id_number: idNumber }),
    ...(link.partnerParams && { partner_params: link.partnerParams }),
    images,
    hosted_link: link.refId,
  }
  if (isInvalidFormatTestNumber(product, request))
    throw fail('This ID number does not look right for the chosen document.')
  const partner = await c.context.partners.find(link.partnerId)
  const { job } = await c.context.jobs.create({
    partnerId: link.partnerId,
    userId: link.userId ?? newTypeId('user'),
    product,
    request,
    callbackUrl: link.callbackUrl ?? partner?.callbackUrl ?? null,
    apiKeyId: null,
    hostedLinkId: link.refId,
    singleUseLink: link.isSingleUse,
    delayMs: c.context.config.sandboxDelayMs,
  })
  c.context.wake()
  return job.id
}

export async function showResult(c: Page, partnerId: string, refId: string, jobId: string): Promise<Response> {
  const link = await findLink(c, partnerId, refId)
  const job = link && /^job_[0-9a-z]{26}$/.test(jobId) ? await c.context.jobs.find(link.partnerId, jobId) : undefined
  if (!link || !job || job.hostedLinkId !== link.refId)
    return html(messagePage('Not found', 'There is no verification here.'), 404)
  return html(resultPage(link, job))
}
