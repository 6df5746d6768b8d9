/** What a job keeps of its submission: the validated fields, and image summaries instead of image bytes. */
import type { ImageInfo } from '../forms/images.ts'
import type { Consent } from '../validation/consent.ts'
import type { MetadataEntry } from '../validation/partner-params.ts'
import type { UserDetails } from '../validation/user-details.ts'

export interface JobRequest {
  user_details?: UserDetails
  consent?: Consent
  country?: string
  id_type?: string
  id_number?: string
  bank_code?: string
  operator?: string
  partner_params?: Record<string, string>
  metadata?: MetadataEntry[]
  sandbox_result?: number
  allow_new_enroll?: boolean
  use_enrolled_image?: boolean
  comparison_image_type?: string
  /** Compare only: the partner named the user, so a passing comparison enrolls them. */
  enroll?: boolean
  images?: ImageInfo[]
  // address verification
  address?: string
  utility_number?: string
  utility_provider?: string
  utility_type?: string
  // AML
  full_name?: string
  countries?: string[]
  birth_year?: number
  strict_match?: boolean
  aliases?: string[]
  search_existing_user?: boolean
  // set by the service
  hosted_link?: string
}
