/**
 * `seconds_remaining` of a document's status: an estimate from the document's size and the pace this deployment's
 * engine has shown on the documents it translated last (their characters and time, kept in the database, so every
 * instance estimates alike and a restart forgets nothing).
 *   - translating: its own time (characters × pace) less the time it has been translating;
 *   - queued: the work ahead of it (documents queued or translating that came before, the same way), shared by this
 *     instance's `DOCUMENT_CONCURRENCY` workers, plus its own time.
 * At least 1 while not done (it is not done: "any moment now"); never sent for done or error documents, which DeepL's
 * description leaves without it.
 */
import type { Kysely } from 'kysely'
import type { TranslationDatabase } from '../database/schema.ts'

/** Documents whose time sets the pace (the most recent ones done). */
export const PACE_SAMPLE = 20
/** The pace before any document was translated here: 1 ms per character (1 000 characters a second). */
export const PRIOR_MS_PER_CHARACTER = 1
/** How long an instance reuses the pace it read before reading it again. */
const PACE_TTL_MS = 5_000

export interface PacedDocument {
  document_id: string
  status: string
  creation_time: string
  reserved_characters: number | string
  translation_started: string | null
}

export class DocumentPace {
  private cached: { msPerCharacter: number; at: number } | undefined

  constructor(
    private readonly db: Kysely<TranslationDatabase>,
    private readonly concurrency: number,
    private readonly now: () => Date,
  ) {}

  /** Milliseconds per character over the last PACE_SAMPLE documents translated (the prior when there are none). */
  async msPerCharacter(): Promise<number> {
    const at = Date.now()
    if (this.cached && at - this.cached.at < PACE_TTL_MS) return this.cached.msPerCharacter
    const recent = await this.db
      .selectFrom('documents')
      .select(['reserved_characters', 'translation_ms'])
      .where('status', 'in', ['done', 'downloaded'])
      .where('translation_ms', 'is not', null)
      .orderBy('creation_time', 'desc')
      .limit(PACE_SAMPLE)
      .execute()
    const ms = recent.reduce((n, r) => n + Number(r.translation_ms), 0)
    const characters = recent.reduce((n, r) => n + Number(r.reserved_characters), 0)
    const msPerCharacter = characters > 0 ? ms / characters : PRIOR_MS_PER_CHARACTER
    this.cached = { msPerCharacter, at }
    return msPerCharacter
  }

  /** A document translated here just now: the next estimate reads the pace again. */
  learnt(): void {
    this.cached = undefined
  }

  /** The estimate for a queued or translating document, in whole seconds (≥ 1); undefined for any other status. */
  async secondsRemaining(document: PacedDocument): Promise<number | undefined> {
    if (document.status !== 'queued' && document.status !== 'translating') return undefined
    const pace = await this.msPerCharacter()
    let ms = this.left(document, pace)
    if (document.status === 'queued') {
      const ahead = await this.db
        .selectFrom('documents')
        .select(['document_id', 'status', 'creation_time', 'reserved_characters', 'translation_started'])
        .where('status', 'in', ['queued', 'translating'])
        .where('creation_time', '<=', document.creation_time)
        .where('document_id', '!=', document.document_id)
        .execute()
      ms += ahead.reduce((n, d) => n + this.left(d, pace), 0) / this.concurrency
    }
    return Math.max(1, Math.ceil(ms / 1000))
  }

  /** What is left of one document's own time: all of it when queued, less its time so far when translating. */
  private left(document: PacedDocument, msPerCharacter: number): number {
    const total = Number(document.reserved_characters) * msPerCharacter
    if (document.status !== 'translating' || !document.translation_started) return total
    return Math.max(0, total - (this.now().getTime() - Date.parse(document.translation_started)))
  }
}
