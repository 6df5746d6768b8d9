/**
 * Quality evaluation jobs (`/v1/quality-evaluation`). The evaluator is deterministic and fast (500 segments of
 * 10 000 characters in well under a second), so a job is evaluated before its 202 is answered and is `done` from
 * the first poll; jobs are kept 24 hours after they finish, then answer 404, as the spec says.
 */
import { randomUUID } from 'node:crypto'
import type { Kysely } from 'kysely'
import { HttpError } from 'routeless'
import type { TranslationDatabase } from '../database/schema.ts'
import type { GlossaryStore } from '../glossaries/glossary-store.ts'
import { baseLanguage, canonicalTarget, isSourceLanguage, normalizeCode } from '../languages/catalogue.ts'
import { evaluate, type EvaluationReport } from './evaluator.ts'

export const RETENTION_MS = 24 * 60 * 60 * 1000
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i

export interface QualitySegment {
  /** @maxLength 10000 */
  source: string
  /** @maxLength 10000 */
  target: string
}

export interface QualityEvaluationRequest {
  metadata: {
    source_language: string
    target_language: string
    /** This server's addition: a glossary of the key whose terms the target must use. */
    glossary_id?: string
  }
  /**
   * @minItems 1
   * @maxItems 500
   */
  segments: QualitySegment[]
}

export type QualityJob =
  | { job_id: string; status: 'processing' }
  | ({ job_id: string; status: 'done' } & EvaluationReport)
  | { job_id: string; status: 'error'; error: { code: 'evaluation_failed'; message: string } }

export class QualityJobs {
  constructor(
    private readonly db: Kysely<TranslationDatabase>,
    private readonly glossaries: GlossaryStore,
    private readonly now: () => Date,
  ) {}

  async submit(keyId: string, request: QualityEvaluationRequest): Promise<{ job_id: string; poll_url: string }> {
    const source = request.metadata.source_language
    const target = canonicalTarget(request.metadata.target_language)
    if (!isSourceLanguage(source) || !target || baseLanguage(source) === baseLanguage(target)) {
      throw new HttpError(400, 'The source_language / target_language combination is not supported.')
    }
    const glossary = await this.glossary(
      keyId,
      request.metadata.glossary_id,
      normalizeCode(source),
      baseLanguage(target),
    )
    const report = evaluate({ sourceLanguage: source, targetLanguage: target, segments: request.segments, glossary })
    const jobId = randomUUID()
    const now = this.now().toISOString()
    await this.db
      .insertInto('quality_evaluations')
      .values({
        job_id: jobId,
        key_id: keyId,
        status: 'done',
        request: JSON.stringify(request),
        result: JSON.stringify(report),
        created_at: now,
        finished_at: now,
      })
      .execute()
    return { job_id: jobId, poll_url: `/v1/quality-evaluation/${jobId}` }
  }

  async poll(keyId: string, jobId: string): Promise<QualityJob> {
    if (!UUID.test(jobId)) throw new HttpError(400, 'job_id must be a valid UUID.')
    const row = await this.db
      .selectFrom('quality_evaluations')
      .selectAll()
      .where('job_id', '=', jobId.toLowerCase())
      .where('key_id', '=', keyId)
      .executeTakeFirst()
    const expired = row?.finished_at && Date.parse(row.finished_at) + RETENTION_MS <= this.now().getTime()
    if (!row || expired) {
      if (expired) await this.db.deleteFrom('quality_evaluations').where('job_id', '=', row.job_id).execute()
      throw new HttpError(404, 'Quality estimation job not found.')
    }
    if (row.status === 'done')
      return { job_id: row.job_id, status: 'done', ...(JSON.parse(row.result!) as EvaluationReport) }
    if (row.status === 'error')
      return {
        job_id: row.job_id,
        status: 'error',
        error: { code: 'evaluation_failed', message: row.result ?? 'The evaluation failed.' },
      }
    return { job_id: row.job_id, status: 'processing' }
  }

  private async glossary(
    keyId: string,
    id: string | undefined,
    source: string,
    target: string,
  ): Promise<Map<string, string> | undefined> {
    if (id === undefined) return undefined
    if (!(await this.glossaries.exists(id, keyId))) throw new HttpError(404, `Glossary '${id}' not found.`)
    const dictionary = await this.glossaries.dictionary(id, source, target)
    if (!dictionary)
      throw new HttpError(
        400,
        `No dictionary found for language pair ${source.toLowerCase()}-${target.toLowerCase()} in glossary '${id}'.`,
      )
    return dictionary
  }
}
