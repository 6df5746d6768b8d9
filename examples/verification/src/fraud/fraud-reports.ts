/** Fraud reports: an append-only history per user; the latest report says whether the user is flagged. */
import { randomUUID } from 'node:crypto'
import type { Kysely } from 'kysely'
import type { Database } from '../storage/schema.ts'

export const FRAUD_REASONS = [
  'FIRST_PARTY_FRAUD',
  'SECOND_PARTY_FRAUD',
  'THIRD_PARTY_FRAUD',
  'SYNTHETIC_IDENTITY',
  'ACCOUNT_TAKEOVER',
  'DOCUMENT_FORGERY',
  'IDENTITY_FARMING',
  'MULE_ACCOUNT',
  'OTHER',
] as const
export type FraudReason = (typeof FRAUD_REASONS)[number]

export interface FraudReport {
  isFraud: boolean
  reason: string | null
  notes: string | null
  reportedBy: string
}

export interface FraudFlag {
  reason: string | null
  flaggedAt: string
}

export class FraudReports {
  constructor(private readonly db: Kysely<Database>) {}

  async add(partnerId: string, userId: string, report: FraudReport): Promise<void> {
    await this.db
      .insertInto('fraud_reports')
      .values({
        id: randomUUID(),
        partner_id: partnerId,
        user_id: userId,
        is_fraud: report.isFraud ? 1 : 0,
        reason: report.isFraud ? report.reason : null,
        notes: report.notes,
        reported_by: report.reportedBy,
        created_at: new Date().toISOString(),
      })
      .execute()
  }

  /** The flag in force: the latest report flags, or there is none. */
  async flagOf(partnerId: string, userId: string): Promise<FraudFlag | undefined> {
    const row = await this.db
      .selectFrom('fraud_reports')
      .select(['is_fraud', 'reason', 'created_at'])
      .where('partner_id', '=', partnerId)
      .where('user_id', '=', userId)
      .orderBy('created_at', 'desc')
      .orderBy('id', 'desc')
      .limit(1)
      .executeTakeFirst()
    return row && Number(row.is_fraud) === 1 ? { reason: row.reason, flaggedAt: row.created_at } : undefined
  }
}
