/** The services every controller reaches through `this.context`. */
import type { Readiness } from '@routeless/example-kit'
import type { Kysely } from 'kysely'
import type { PartnerStore } from './auth/partners.ts'
import type { TokenService } from './auth/tokens.ts'
import type { DeliveryStore } from './callbacks/delivery-store.ts'
import type { Config } from './config.ts'
import type { FraudReports } from './fraud/fraud-reports.ts'
import type { HostedLinkStore } from './links/hosted-link-store.ts'
import type { EnrollmentStore } from './jobs/enrollments.ts'
import type { JobStore } from './jobs/job-store.ts'
import type { Database } from './storage/schema.ts'

export interface Services {
  config: Config
  db: Kysely<Database>
  partners: PartnerStore
  tokens: TokenService
  jobs: JobStore
  deliveries: DeliveryStore
  enrollments: EnrollmentStore
  fraud: FraudReports
  links: HostedLinkStore
  /** Asks the background worker to look for due work now. */
  wake(): void
  /** The OpenAPI document of the app (set once the app is built; see app.ts). */
  openapi(): Record<string, unknown>
  /** What `GET /readyz` checks: the database. */
  readiness: Readiness
}
