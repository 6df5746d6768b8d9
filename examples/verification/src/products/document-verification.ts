/**
 * POST /v3/document_verification, /v3/enhanced_document_verification and /v3/residency_document_verification:
 * a selfie with liveness frames and a document image (plus the visa page for residency).
 */
import { text } from '../forms/fields.ts'
import type { Form } from '../forms/multipart.ts'
import type { Submission } from '../http/accept-job.ts'
import type { ApiController } from '../http/api-controller.ts'
import { apiError, required } from '../http/errors.ts'
import { resolveUserId } from '../http/user-id.ts'
import { findIdType, matchesIdNumber } from '../reference/id-types.ts'
import { documentTypesOf } from '../reference/supported-documents.ts'
import { checkTokenProduct, readCallbackUrl, readCommonFields } from './common-fields.ts'
import { INVALID_ID_NUMBER, readCountry } from './id-info.ts'
import { readDocumentImage, readLiveness, readSelfie } from './images.ts'

type DocumentProduct = 'document_verification' | 'enhanced_document_verification' | 'residency_document_verification'

export async function readDocumentVerification(c: ApiController, form: Form, product: DocumentProduct): Promise<Submission> {
  if (product === 'residency_document_verification') checkPartnerHeader(c)
  checkTokenProduct(c, product === 'residency_document_verification' ? 'document_verification' : product)
  const max = c.context.config.imageMaxBytes
  const selfie = await readSelfie(form, max)
  const liveness = await readLiveness(form, max)
  const document = (await readDocumentImage(form, 'document', max, { required: true }))!
  const back = await readDocumentImage(form, 'document_back', max, { required: false })
  const visa = product === 'residency_document_verification' ? await readDocumentImage(form, 'visa', max, { required: true }) : undefined
  const common = readCommonFields(c, form)
  const country = readCountry(form)
  const id = readDocumentType(form, country, product)
  const callbackUrl = await readCallbackUrl(c, form, { required: true })
  const userId = resolveUserId(c.auth, c.request, text(form, 'user_id'))
  const images = [selfie, ...liveness, document, ...(back ? [back] : []), ...(visa ? [visa] : [])]
  return { product, userId, request: { ...common, country, ...id, images }, callbackUrl }
}

/** DocV classifies the document itself when `id_type` is missing; EDocV needs a type the ID authority knows. */
function readDocumentType(form: Form, country: string, product: DocumentProduct): { id_type: string; id_number?: string } {
  const given = text(form, 'id_type')?.trim().toUpperCase()
  if (product === 'residency_document_verification') {
    if (given !== 'PASSPORT') throw apiError(400, "Field 'id_type' must be PASSPORT for residency document verification.")
    return { id_type: given }
  }
  if (product === 'document_verification') {
    const known = documentTypesOf(country)
    if (given === undefined) return { id_type: known[0] ?? 'IDENTITY_CARD' }
    if (known.length && !known.includes(given) && !findIdType(country, given)) throw required('id_type')
    return { id_type: given }
  }
  if (!given) throw required('id_type')
  const type = findIdType(country, given)
  if (!type) throw required('id_type')
  if (!type.products.includes('enhanced_document_verification')) throw apiError(403, 'ID type not enabled for this partner.')
  const idNumber = text(form, 'id_number')?.trim()
  if (idNumber !== undefined && !matchesIdNumber(type, idNumber)) throw apiError(400, INVALID_ID_NUMBER)
  return { id_type: given, ...(idNumber && { id_number: idNumber }) }
}

/** Residency DocV requires `SmileID-Partner-ID`, and it must be the token's partner. */
function checkPartnerHeader(c: ApiController): void {
  const header = c.request.headers.get('smileid-partner-id')?.trim()
  if (!header || !/^\d{3,}$/.test(header)) throw apiError(400, "Required header 'SmileID-Partner-ID' is missing or invalid.")
  if (header.replace(/^0+(?=\d)/, '') !== c.auth.partnerId) throw apiError(403, 'You are not authorized to do that.')
}
