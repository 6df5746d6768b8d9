import type { BackgroundJobsTable } from '@routeless/example-kit'

/** Table types of the verification database (times are ISO-8601 text, JSON documents are text). */
export interface PartnerTable {
  id: string
  name: string
  callback_url: string | null
  created_at: string
}

export interface ApiKeyTable {
  id: string
  partner_id: string
  /** SHA-256 of the key: finds the row without scanning. */
  lookup: string
  /** scrypt hash: the check. */
  hash: string
  /** AES-GCM sealed copy: signing webhooks and sync answers needs the key. */
  sealed: string
  created_at: string
  revoked_at: string | null
}

export interface SettingTable {
  name: string
  value: string
}

export interface JobTable {
  id: string
  partner_id: string
  user_id: string
  product: string
  /** `processing`, then one of `clear`, `block`, `attention`, `error`. */
  status: string
  /** The validated request (no image bytes), JSON. */
  request: string
  callback_url: string | null
  api_key_id: string | null
  hosted_link_id: string | null
  /** `hosted_link_id` when the link is single-use (unique: the link's one job), else null. */
  single_use_link?: string | null
  idempotency_key: string | null
  /** The final payload sent to callbacks and returned by sync endpoints, JSON. */
  result: string | null
  created_at: string
  due_at: string
  lease_until: string | null
  completed_at: string | null
}

export interface DeliveryTable {
  id: string
  job_id: string
  partner_id: string
  /** `callback` (first delivery) or `replay`. */
  kind: string
  url: string
  /** `pending`, `delivered` or `failed`. */
  state: string
  attempts: number
  next_attempt_at: string | null
  lease_until: string | null
  last_status: number | null
  last_error: string | null
  created_at: string
  finished_at: string | null
}

export interface DeliveryAttemptTable {
  id: string
  delivery_id: string
  attempt: number
  started_at: string
  duration_ms: number
  status_code: number | null
  error: string | null
}

export interface EnrollmentTable {
  partner_id: string
  user_id: string
  job_id: string
  image_sha256: string | null
  enrolled_at: string
}

export interface FraudReportTable {
  id: string
  partner_id: string
  user_id: string
  is_fraud: number
  reason: string | null
  notes: string | null
  reported_by: string
  created_at: string
}

export interface HostedLinkTable {
  ref_id: string
  partner_id: string
  user_id: string | null
  name: string
  description: string | null
  id_types: string
  is_single_use: number
  callback_url: string | null
  notice_privacy_policy_url: string
  logo_url: string | null
  redirect_url: string | null
  theme_color: string | null
  expires_at: string | null
  partner_params: string | null
  is_disabled: number
  created_at: string
  updated_at: string
}

export interface Database {
  background_jobs: BackgroundJobsTable
  partners: PartnerTable
  api_keys: ApiKeyTable
  settings: SettingTable
  jobs: JobTable
  deliveries: DeliveryTable
  delivery_attempts: DeliveryAttemptTable
  enrollments: EnrollmentTable
  fraud_reports: FraudReportTable
  hosted_links: HostedLinkTable
}
