/**
 * The hosted verification page: GET shows the form (or why the link cannot be used), POST turns the end user's
 * details and images into a job and redirects (303) to its result page, which refreshes until the job is decided.
 */
import { readImage } from '../forms/images.ts'
import { type Controller, type Html, HttpError, html, isAnswer, isHttpError, type SeeOther, seeOther } from 'routeless'
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

type PageController = Controller<Services>

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

/** A page of the hosted flow: HTML, never cached. */
export type Page<S extends number = 200> = Html<string, S, { 'cache-control': 'no-store' }>

function page<S extends number>(body: string, status: S): Page<S> {
  return html(body, status, { 'cache-control': 'no-store' as const })
}

/** Why a link's page cannot be used: it does not exist (404), or it is disabled, expired or used up (410). */
type Unusable = Page<404> | Page<410>

function unusable(link: HostedLink | Unusable): link is Unusable {
  return isAnswer(link)
}

/** The form's fields (multipart, as the page's form sends them: text inputs and two photos). */
export interface PageForm {
  /** Which of the link's ID types (its index, from 0). */
  choice?: string
  given_names?: string
  last_name?: string
  email?: string
  phone_number?: string
  id_number?: string
  /** `granted` when the privacy notice is accepted. */
  consent?: string
  /** A JPEG or PNG photo of the end user. */
  selfie_image?: File
  /** A JPEG or PNG photo of the document. */
  document?: File
}

async function findLink(c: PageController, partnerId: string, refId: string): Promise<HostedLink | undefined> {
  if (!/^[0-9a-f-]{36}$/i.test(refId) || !/^\d{1,18}$/.test(partnerId)) return undefined
  return c.context.links.find(partnerId, refId.toLowerCase())
}

/** The link's page, or a page saying why it cannot be used (404, 410). */
async function usableLink(c: PageController, partnerId: string, refId: string): Promise<HostedLink | Unusable> {
  const link = await findLink(c, partnerId, refId)
  if (!link) return page(messagePage('Link not found', 'This verification link does not exist.'), 404)
  const state = linkState(link, (await c.context.jobs.countByLink(link.refId)).total)
  if (state !== 'active') return page(messagePage(STATE_TEXT[state][0], STATE_TEXT[state][1], link), 410)
  return link
}

export async function showForm(c: PageController, partnerId: string, refId: string): Promise<Page | Unusable> {
  const link = await usableLink(c, partnerId, refId)
  return unusable(link) ? link : page(formPage(link, c.url.pathname), 200)
}

/** The form sent: 303 to the job's result page, or the form again with what to fix (400; 413 for a too large photo). */
export async function submitForm(
  c: PageController,
  partnerId: string,
  refId: string,
  form: PageForm,
): Promise<SeeOther | Page<400> | Page<413> | Unusable> {
  const link = await usableLink(c, partnerId, refId)
  if (unusable(link)) return link
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
    if (error instanceof LinkAlreadyUsed) return page(messagePage(STATE_TEXT.used[0], STATE_TEXT.used[1], link), 410)
    if (!isHttpError(error) || error.status >= 500) throw error
    const again = formPage(link, c.url.pathname, values, error.message)
    return error.status === 413 ? page(again, 413) : page(again, 400)
  }
  return seeOther(`${c.url.pathname.replace(/\/+$/, '')}/${jobId}`)
}

async function createPageJob(c: PageController, link: HostedLink, form: PageForm, values: FormValues): Promise<string> {
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

export async function showResult(
  c: PageController,
  partnerId: string,
  refId: string,
  jobId: string,
): Promise<Page | Page<404>> {
  const link = await findLink(c, partnerId, refId)
  const job = link && /^job_[0-9a-z]{26}$/.test(jobId) ? await c.context.jobs.find(link.partnerId, jobId) : undefined
  if (!link || !job || job.hostedLinkId !== link.refId)
    return page(messagePage('Not found', 'There is no verification here.'), 404)
  return page(resultPage(link, job), 200)
}
