/**
 * POST /v3/document_verification, /v3/enhanced_document_verification and /v3/residency_document_verification:
 * a selfie with liveness frames and a document image (plus the visa page for residency).
 */
import type { CountryCode, FilePart } from '../forms/field-types.ts'
import type { Submission } from '../http/accept-job.ts'
import type { ApiController } from '../http/api-controller.ts'
import { apiError, required } from '../http/errors.ts'
import { resolveUserId } from '../http/user-id.ts'
import { findIdType, matchesIdNumber } from '../reference/id-types.ts'
import { documentTypesOf } from '../reference/supported-documents.ts'
import { readCallbackUrl, readCommonFields, type CommonForm } from './common-fields.ts'
import { INVALID_ID_NUMBER, readCountry } from './id-info.ts'
import { readDocumentImage, readLiveness, readSelfie, type SelfieParts } from './images.ts'

type DocumentProduct = 'document_verification' | 'enhanced_document_verification' | 'residency_document_verification'

interface DocumentParts extends SelfieParts, CommonForm {
  country: CountryCode
  /** The document's front: JPEG or PNG, checked by content */
  document: FilePart
  /** The document's back: JPEG or PNG, checked by content */
  document_back?: FilePart
}

export interface DocumentVerificationForm extends DocumentParts {
  /** Classified from the document when missing */
  id_type?: string
}

export interface EnhancedDocumentVerificationForm extends DocumentParts {
  id_type: string
  id_number?: string
}

export interface ResidencyDocumentVerificationForm extends DocumentParts {
  /** @errorMessage Field 'id_type' must be PASSPORT for residency document verification. */
  id_type: 'PASSPORT'
  /** The visa page: JPEG or PNG, checked by content */
  visa: FilePart
}

type DocumentForm = DocumentVerificationForm | EnhancedDocumentVerificationForm | ResidencyDocumentVerificationForm

export async function readDocumentVerification(
  c: ApiController,
  form: DocumentForm,
  product: DocumentProduct,
): Promise<Submission> {
  const max = c.context.config.imageMaxBytes
  const selfie = await readSelfie(form.selfie_image, max)
  const liveness = await readLiveness(form.liveness_images, max)
  const document = await readDocumentImage(form.document, 'document', max)
  const back =
    form.document_back === undefined ? undefined : await readDocumentImage(form.document_back, 'document_back', max)
  const visa = 'visa' in form ? await readDocumentImage(form.visa, 'visa', max) : undefined
  const common = readCommonFields(c, form)
  const country = readCountry(form.country)
  const id = readDocumentType(form, country, product)
  const callbackUrl = await readCallbackUrl(c, form, { required: true })
  const userId = resolveUserId(c.auth, c.headers, form.user_id)
  const images = [selfie, ...liveness, document, ...(back ? [back] : []), ...(visa ? [visa] : [])]
  return { product, userId, request: { ...common, country, ...id, images }, callbackUrl }
}

/** DocV classifies the document itself when `id_type` is missing; EDocV needs a type the ID authority knows. */
function readDocumentType(
  form: DocumentForm,
  country: string,
  product: DocumentProduct,
): { id_type: string; id_number?: string } {
  const given = form.id_type?.trim().toUpperCase() || undefined
  if (product === 'residency_document_verification') return { id_type: 'PASSPORT' }
  if (product === 'document_verification') {
    const known = documentTypesOf(country)
    if (given === undefined) return { id_type: known[0] ?? 'IDENTITY_CARD' }
    if (known.length && !known.includes(given) && !findIdType(country, given)) throw required('id_type')
    return { id_type: given }
  }
  if (!given) throw required('id_type')
  const type = findIdType(country, given)
  if (!type) throw required('id_type')
  if (!type.products.includes('enhanced_document_verification'))
    throw apiError(403, 'ID type not enabled for this partner.')
  const idNumber = ('id_number' in form ? form.id_number?.trim() : undefined) || undefined
  if (idNumber !== undefined && !matchesIdNumber(type, idNumber)) throw apiError(400, INVALID_ID_NUMBER)
  return { id_type: given, ...(idNumber && { id_number: idNumber }) }
}
