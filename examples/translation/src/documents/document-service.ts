/**
 * Document translation: an upload is checked (format, size, parameters), its characters are reserved against the
 * key's quota, and it is stored — file and job in the database, so any instance serves any document — then
 * translated in the background on the shared job queue (at most `concurrency` at a time per instance; a job whose
 * instance died is taken over once its lease expires). The result can be downloaded once; then the files and the key
 * are gone (404).
 */
import { createHash, randomBytes } from 'node:crypto'
import { existsSync } from 'node:fs'
import { readFile, rm } from 'node:fs/promises'
import path from 'node:path'
import type { ClaimedJob, JobQueue } from '@routeless/example-kit'
import type { Kysely, Transaction } from 'kysely'
import { HttpError, isHttpError } from 'routeless'
import type { TranslationDatabase } from '../database/schema.ts'
import { notSpecified } from '../http/params.ts'
import type { ApiKeyRecord } from '../keys/api-key.ts'
import type { KeyStore } from '../keys/key-store.ts'
import { billableCharacters } from '../markup/skeleton.ts'
import { translateParams } from '../translate/translate-params.ts'
import type { DocumentRequest, TranslationOptions } from '../translate/translate-request.ts'
import type { TranslationService } from '../translate/translation-service.ts'
import type { Meter } from '../usage/meter.ts'
import { UsageStore } from '../usage/usage-store.ts'
import { baseLanguage } from '../languages/catalogue.ts'
import { convert, converts, outputFormatFor } from './conversions.ts'
import { documentLanguage } from './document-language.ts'
import { DocumentPace } from './document-pace.ts'
import { extract, invalidFile, isDocumentFormat, UNSUPPORTED_FORMATS, type DocumentFormat } from './formats.ts'

export interface DocumentServiceOptions {
  db: Kysely<TranslationDatabase>
  /** The shared job queue (the service registers its `document` handler). */
  queue: JobQueue
  /** Where the previous version kept results on disk (read once, for documents done before the upgrade). */
  dir: string
  translation: TranslationService
  keys: KeyStore
  meter: Meter
  /** Largest upload, in bytes. */
  maxBytes: number
  /** Documents this instance translates at once (DOCUMENT_CONCURRENCY): how fast a queue ahead drains. */
  concurrency: number
  /**
   * Whether `output_format` converts the result (default). TEST_MODE=deepl-mock passes false: deepl-mock, whose
   * behaviour client suites assert, delivers the translated input unchanged under the new name and content type.
   */
  convertFormats?: boolean
  now: () => Date
}

/** Translation options kept with a job (what `/v2/translate` would take, minus the text). */
const OPTIONS = [
  'source_lang',
  'target_lang',
  'formality',
  'glossary_id',
  'glossary_ids',
  'translation_memory_id',
  'translation_memory_threshold',
] as const

export const DOCUMENT_NOT_FOUND = 'Document not found'
export const SAME_LANGUAGE = 'Source and target language are equal.'
/**
 * The upload answers when its job is done or after this long, whichever comes first: a small document is then done
 * at the client's first status check (deepl-node otherwise sleeps 5 s before checking again).
 */
export const UPLOAD_WAIT_MS = 250

export const DOCUMENT_JOB = 'document'
const FAILED = 'The document could not be translated.'

export class DocumentService {
  /** Uploads waiting (UPLOAD_WAIT_MS at most) for their job to end on this instance. */
  private readonly waiting = new Map<string, () => void>()
  private readonly pace: DocumentPace

  constructor(private readonly o: DocumentServiceOptions) {
    this.pace = new DocumentPace(o.db, o.concurrency, o.now)
    o.queue.handle(DOCUMENT_JOB, (job) => this.run(job), {
      maxAttempts: 3,
      giveUp: (job, _error, trx) => this.fail(trx as unknown as Transaction<TranslationDatabase>, job.ref, FAILED),
    })
  }

  async upload(key: ApiKeyRecord, request: DocumentRequest): Promise<{ document_id: string; document_key: string }> {
    const file = request.file
    if (file === undefined) throw notSpecified('file')
    const fileName = request.filename || file.name
    if (!fileName) throw notSpecified('filename')
    const format = path.extname(fileName).slice(1).toLowerCase()
    if (UNSUPPORTED_FORMATS.includes(format)) {
      throw new HttpError(
        400,
        `Document format '${format}' is not supported by this server: its engines cannot read PDF or images. Supported: docx, pptx, xlsx, html, htm, txt, srt, xlf, xliff.`,
      )
    }
    if (!isDocumentFormat(format))
      throw invalidFile(
        `the file type '${format || fileName}' is not supported (docx, pptx, xlsx, html, htm, txt, srt, xlf, xliff)`,
      )
    const output = outputFormatFor(format, request.output_format) // 400 for a conversion not made here
    if (file.size > this.o.maxBytes) throw new HttpError(413, `The document is larger than ${this.o.maxBytes} bytes.`)

    const options: Partial<TranslationOptions> = {}
    for (const name of OPTIONS) if (request[name] !== undefined) Object.assign(options, { [name]: request[name] })
    const checked = translateParams({ target_lang: '', ...options, text: ['x'] }) // every rule now: 400 at upload, not a failed job
    if (checked.sourceLang !== undefined && checked.sourceLang === baseLanguage(checked.targetLang))
      throw new HttpError(400, SAME_LANGUAGE)
    const bytes = new Uint8Array(await file.arrayBuffer())
    const parts = await extract(format, bytes) // a damaged file is a 400 now, not a failed job later
    const characters = parts.texts.reduce((n, t) => n + billableCharacters(t, parts.tagHandling), 0)
    const documentId = randomBytes(16).toString('hex').toUpperCase()
    const documentKey = randomBytes(32).toString('hex').toUpperCase()
    const done = new Promise<void>((resolve) => this.waiting.set(documentId, resolve))
    try {
      // The reservation commits with the document and its job, or not at all: a database lost on the way leaves no
      // characters billed for a document that was never accepted.
      await this.o.db.transaction().execute(async (trx) => {
        const reservation = await this.o.meter.reserve(key, characters, '', trx) // 456 now when over quota
        await trx
          .insertInto('documents')
          .values({
            document_id: documentId,
            key_hash: hash(documentKey),
            owner_key_id: key.keyId,
            status: 'queued',
            error_message: null,
            file_name: fileName,
            format,
            request: JSON.stringify(options),
            creation_time: this.o.now().toISOString(),
            reserved_characters: characters,
            usage_period: reservation.period,
            usage_day: reservation.day,
            output_format: output === format ? null : output,
          })
          .execute()
        await trx.insertInto('document_files').values({ document_id: documentId, kind: 'source', bytes }).execute()
        await this.o.queue.enqueue({ kind: DOCUMENT_JOB, ref: documentId }, trx)
      })
    } catch (error) {
      this.waiting.delete(documentId)
      throw error
    }
    this.o.queue.wake()
    await Promise.race([done, new Promise((resolve) => setTimeout(resolve, UPLOAD_WAIT_MS).unref())])
    this.waiting.delete(documentId)
    return { document_id: documentId, document_key: documentKey }
  }

  async status(documentId: string, request: DocumentRequest) {
    const row = await this.find(documentId, request)
    const out: Record<string, unknown> = { document_id: row.document_id, status: row.status }
    const seconds = await this.pace.secondsRemaining(row) // queued and translating only
    if (seconds !== undefined) out.seconds_remaining = seconds
    if (row.status === 'done') out.billed_characters = Number(row.billed_characters)
    if (row.status === 'error') out.error_message = out.message = row.error_message
    return out
  }

  /**
   * The translated file, once: afterwards the document is gone. The result is read first, then — in one transaction —
   * the document is marked downloaded and its file deleted; a failed read leaves it downloadable.
   */
  async download(
    documentId: string,
    request: DocumentRequest,
  ): Promise<{ bytes: Uint8Array; fileName: string; format: DocumentFormat }> {
    const row = await this.find(documentId, request)
    if (row.status === 'queued' || row.status === 'translating') throw new HttpError(503, 'Document not ready')
    if (row.status === 'error') throw new HttpError(400, `Document translation failed: ${row.error_message}`)
    const legacy = path.join(this.o.dir, `${row.document_id}.out`)
    const bytes = await this.o.db.transaction().execute(async (trx) => {
      const file = await trx
        .selectFrom('document_files')
        .select('bytes')
        .where('document_id', '=', row.document_id)
        .where('kind', '=', 'result')
        .executeTakeFirst()
      const bytes = file
        ? new Uint8Array(file.bytes)
        : existsSync(legacy)
          ? new Uint8Array(await readFile(legacy))
          : undefined
      if (!bytes) throw new HttpError(404, DOCUMENT_NOT_FOUND)
      const claimed = await trx
        .updateTable('documents')
        .set({ status: 'downloaded' })
        .where('document_id', '=', row.document_id)
        .where('status', '=', 'done')
        .executeTakeFirst()
      if (Number(claimed.numUpdatedRows) !== 1) throw new HttpError(404, DOCUMENT_NOT_FOUND)
      await trx.deleteFrom('document_files').where('document_id', '=', row.document_id).execute()
      return bytes
    })
    await rm(legacy, { force: true })
    const format = (row.output_format ?? row.format) as DocumentFormat
    const fileName = format === row.format ? row.file_name : `${path.parse(row.file_name).name}.${format}`
    return { bytes, fileName, format }
  }

  private async find(documentId: string, request: DocumentRequest) {
    const key = request.document_key || undefined
    if (key === undefined) throw notSpecified('document_key')
    const row = /^[0-9A-F]{32}$/i.test(documentId)
      ? await this.o.db
          .selectFrom('documents')
          .selectAll()
          .where('document_id', '=', documentId.toUpperCase())
          .executeTakeFirst()
      : undefined
    if (!row || row.key_hash !== hash(key.toUpperCase()) || row.status === 'downloaded')
      throw new HttpError(404, DOCUMENT_NOT_FOUND)
    return row
  }

  /** The `document` job: translate the stored upload; store the result (or the error and the refund) if this worker still holds the job. */
  private async run(job: ClaimedJob): Promise<void> {
    const db = this.o.db
    const row = await db.selectFrom('documents').selectAll().where('document_id', '=', job.ref).executeTakeFirst()
    if (!row || (row.status !== 'queued' && row.status !== 'translating')) return void (await job.complete())
    const started = this.o.now()
    await db
      .updateTable('documents')
      .set({ status: 'translating', translation_started: started.toISOString() })
      .where('document_id', '=', job.ref)
      .where('status', 'in', ['queued', 'translating'])
      .execute()
    let bytes: Uint8Array
    let billed = 0
    try {
      const key = await this.o.keys.get(row.owner_key_id)
      if (!key) throw new HttpError(403, 'The key that uploaded this document no longer exists.')
      const source = await db
        .selectFrom('document_files')
        .select('bytes')
        .where('document_id', '=', job.ref)
        .where('kind', '=', 'source')
        .executeTakeFirst()
      if (!source) throw new HttpError(500, FAILED)
      const format = row.format as DocumentFormat
      const parts = await extract(format, new Uint8Array(source.bytes))
      let translations: string[] = []
      if (parts.texts.length > 0) {
        const params = translateParams({
          target_lang: '',
          ...(JSON.parse(row.request) as Partial<TranslationOptions>),
          text: parts.texts,
          tag_handling: parts.tagHandling,
          outline_detection: false,
          ignore_tags: parts.ignoreTags,
        })
        params.showBilledCharacters = true
        // Already in the target language: DeepL ends the job in error (and bills nothing) rather than copy it.
        if (
          params.sourceLang === undefined &&
          documentLanguage(parts.texts, (t) => this.o.translation.detectLanguage(t)) === baseLanguage(params.targetLang)
        ) {
          throw new HttpError(400, SAME_LANGUAGE)
        }
        const items = await this.o.translation.translate(params, key, '', { meter: false }) // reserved at upload
        translations = items.map((i) => i.text)
        billed = items.reduce((n, i) => n + (i.billed_characters ?? 0), 0)
      }
      bytes = await parts.rebuild(translations)
      const targetLang = String(JSON.parse(row.request).target_lang ?? '')
      if (format === 'xlf' || format === 'xliff') bytes = setTargetLanguage(bytes, targetLang)
      const output = (row.output_format ?? format) as DocumentFormat
      if (converts(format, output) && this.o.convertFormats !== false)
        bytes = convert(format, output, bytes, { targetLang, title: path.parse(row.file_name).name })
    } catch (error) {
      if (!isHttpError(error)) throw error // retried by the queue; its giveUp records the failure
      await job.complete((trx) => this.fail(trx as unknown as Transaction<TranslationDatabase>, job.ref, error.message))
      return this.settled(job.ref)
    }
    await job.complete(async (queueTrx) => {
      const trx = queueTrx as unknown as Transaction<TranslationDatabase>
      await trx.insertInto('document_files').values({ document_id: job.ref, kind: 'result', bytes }).execute()
      await trx.deleteFrom('document_files').where('document_id', '=', job.ref).where('kind', '=', 'source').execute()
      await trx
        .updateTable('documents')
        .set({ status: 'done', billed_characters: billed, translation_ms: this.o.now().getTime() - started.getTime() })
        .where('document_id', '=', job.ref)
        .execute()
      // The upload reserved what the text was worth; settle any difference so usage equals what was billed.
      const reserved = Number(row.reserved_characters)
      if (billed !== reserved && row.usage_period && row.usage_day)
        await new UsageStore(trx).release(row.owner_key_id, row.usage_period, row.usage_day, '', reserved - billed, trx)
    })
    this.pace.learnt()
    this.settled(job.ref)
  }

  /** Marks the document failed and gives its reserved characters back (inside the job's fenced transaction). */
  private async fail(trx: Transaction<TranslationDatabase>, documentId: string, message: string): Promise<void> {
    const row = await trx.selectFrom('documents').selectAll().where('document_id', '=', documentId).executeTakeFirst()
    if (!row || (row.status !== 'queued' && row.status !== 'translating')) return
    await trx
      .updateTable('documents')
      .set({ status: 'error', error_message: message })
      .where('document_id', '=', documentId)
      .execute()
    await trx.deleteFrom('document_files').where('document_id', '=', documentId).execute()
    const reserved = Number(row.reserved_characters)
    if (reserved && row.usage_period && row.usage_day)
      await new UsageStore(trx).release(row.owner_key_id, row.usage_period, row.usage_day, '', reserved, trx)
  }

  private settled(documentId: string): void {
    this.waiting.get(documentId)?.()
  }
}

function hash(documentKey: string): string {
  return createHash('sha256').update(documentKey).digest('hex')
}

function setTargetLanguage(bytes: Uint8Array, target: unknown): Uint8Array {
  const code = String(target ?? '').toLowerCase()
  const text = new TextDecoder().decode(bytes)
  return new TextEncoder().encode(
    text.replace(/<xliff\b[^>]*>/, (root) =>
      /\btrgLang\s*=/.test(root)
        ? root.replace(/\btrgLang\s*=\s*(["'])[^"']*\1/, `trgLang="${code}"`)
        : root.replace(/\s*(\/?)>$/, ` trgLang="${code}"$1>`),
    ),
  )
}
