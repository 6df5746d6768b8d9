/** SmartSelfie enrollments: which users of a partner have a face on file (only the image's hash is kept). */
import type { Kysely } from 'kysely'
import type { Database } from '../storage/schema.ts'

export class EnrollmentStore {
  constructor(private readonly db: Kysely<Database>) {}

  async isEnrolled(partnerId: string, userId: string): Promise<boolean> {
    const row = await this.db
      .selectFrom('enrollments')
      .select('user_id')
      .where('partner_id', '=', partnerId)
      .where('user_id', '=', userId)
      .executeTakeFirst()
    return row !== undefined
  }

  /** Enrolls the user, replacing an earlier enrollment. */
  async enroll(partnerId: string, userId: string, jobId: string, imageSha256: string | null): Promise<void> {
    const enrolledAt = new Date().toISOString()
    await this.db
      .insertInto('enrollments')
      .values({
        partner_id: partnerId,
        user_id: userId,
        job_id: jobId,
        image_sha256: imageSha256,
        enrolled_at: enrolledAt,
      })
      .onConflict((oc) =>
        oc
          .columns(['partner_id', 'user_id'])
          .doUpdateSet({ job_id: jobId, image_sha256: imageSha256, enrolled_at: enrolledAt }),
      )
      .execute()
  }
}
