/**
 * Document translation: an upload is checked (format, size, parameters, quota) and stored — the file under
 * `<DATA_DIR>/documents`, the job in the database — then translated in the background by at most `concurrency`
 * jobs at a time. Jobs left queued or translating by a stopped server are picked up again at start-up. The result can
 * be downloaded once; then the files and the key are gone (404).
 */
import { createHash, randomBytes } from 'node:crypto'
import { mkdirSync } from 'node:fs'
import { readFile, rm, writeFile } from 'node:fs/promises'
import path from 'node:path'
import type { Kysely } from 'kysely'
import { HttpError, isHttpError, type Kwargs } from 'routeless'
import type { TranslationDatabase } from '../database/schema.ts'
import { notSpecified, notSupported, optionalString } from '../http/params.ts'
import type { ApiKeyRecord } from '../keys/api-key.ts'
import type { KeyStore } from '../keys/key-store.ts'
import { billableCharacters } from '../markup/skeleton.ts'
import { readTranslateParams } from '../translate/translate-params.ts'
import type { TranslationService } from '../translate/translation-service.ts'
import type { Meter } from '../usage/meter.ts'
import { baseLanguage } from '../languages/catalogue.ts'
import { documentLanguage } from './document-language.ts'
import { extract, invalidFile, isDocumentFormat, UNSUPPORTED_FORMATS, type DocumentFormat } from './formats.ts'

export interface DocumentServiceOptions {
  db: Kysely<TranslationDatabase>
  dir: string
  translation: TranslationService
  keys: KeyStore
  meter: Meter
  /** Largest upload, in bytes. */
  maxBytes: number
  /** Jobs translated at the same time. */
  concurrency: number
  now: () => Date
}

/** Translation options kept with a job (what `/v2/translate` would take, minus the text). */
const OPTIONS = ['source_lang', 'target_lang', 'formality', 'glossary_id', 'glossary_ids', 'translation_memory_id', 'translation_memory_threshold'] as const

export const DOCUMENT_NOT_FOUND = 'Document not found'
export const SAME_LANGUAGE = 'Source and target language are equal.'
/**
 * The upload answers when its job is done or after this long, whichever comes first: a small document is then done
 * at the client's first status check (deepl-node otherwise sleeps 5 s before checking again).
 */
export const UPLOAD_WAIT_MS = 250

export class DocumentService {
  private readonly queue: string[] = []
  private readonly running = new Set<Promise<void>>()
  private readonly jobs = new Map<string, Promise<void>>()
  private closed = false

  constructor(private readonly o: DocumentServiceOptions) {
    mkdirSync(o.dir, { recursive: true })
  }

  /** Queues the jobs a previous run left unfinished. */
  async resume(): Promise<void> {
    const rows = await this.o.db.selectFrom('documents').select('document_id').where('status', 'in', ['queued', 'translating']).orderBy('creation_time').execute()
    for (const r of rows) this.enqueue(r.document_id)
  }

  async upload(key: ApiKeyRecord, kwargs: Kwargs): Promise<{ document_id: string; document_key: string }> {
    const files = Array.isArray(kwargs.file) ? kwargs.file : [kwargs.file]
    const file = files[0]
    if (!(file instanceof File)) throw notSpecified('file')
    const fileName = optionalString(kwargs, 'filename') ?? file.name
    if (!fileName) throw notSpecified('filename')
    const format = path.extname(fileName).slice(1).toLowerCase()
    if (UNSUPPORTED_FORMATS.includes(format)) {
      throw new HttpError(400, `Document format '${format}' is not supported by this server: its engines cannot read PDF or images. Supported: docx, pptx, xlsx, html, htm, txt, srt, xlf, xliff.`)
    }
    if (!isDocumentFormat(format)) throw invalidFile(`the file type '${format || fileName}' is not supported (docx, pptx, xlsx, html, htm, txt, srt, xlf, xliff)`)
    const output = optionalString(kwargs, 'output_format')?.toLowerCase()
    if (output !== undefined && output !== format && !(sameFamily(output, format))) throw notSupported('output_format')
    if (file.size > this.o.maxBytes) throw new HttpError(413, `The document is larger than ${this.o.maxBytes} bytes.`)

    const options: Kwargs = {}
    for (const name of OPTIONS) if (kwargs[name] !== undefined) options[name] = kwargs[name]
    const checked = readTranslateParams({ ...options, text: 'x' }) // validates every option now: 400 at upload, not a failed job
    if (checked.sourceLang !== undefined && checked.sourceLang === baseLanguage(checked.targetLang)) throw new HttpError(400, SAME_LANGUAGE)
    const bytes = new Uint8Array(await file.arrayBuffer())
    const parts = await extract(format, bytes) // a damaged file is a 400 now, not a failed job later
    const characters = parts.texts.reduce((n, t) => n + billableCharacters(t, parts.tagHandling), 0)
    await this.checkQuota(key, characters)

    const documentId = randomBytes(16).toString('hex').toUpperCase()
    const documentKey = randomBytes(32).toString('hex').toUpperCase()
    await writeFile(this.file(documentId, 'in'), bytes)
    await this.o.db.insertInto('documents').values({
      document_id: documentId, key_hash: hash(documentKey), owner_key_id: key.keyId, status: 'queued', error_message: null,
      file_name: fileName, format, request: JSON.stringify(options), creation_time: this.o.now().toISOString(),
    }).execute()
    this.enqueue(documentId)
    const job = this.jobs.get(documentId)
    if (job) await Promise.race([job, new Promise((resolve) => setTimeout(resolve, UPLOAD_WAIT_MS).unref())])
    return { document_id: documentId, document_key: documentKey }
  }

  async status(documentId: string, kwargs: Kwargs) {
    const row = await this.find(documentId, kwargs)
    const out: Record<string, unknown> = { document_id: row.document_id, status: row.status }
    if (row.status === 'translating') out.seconds_remaining = 1
    if (row.status === 'done') out.billed_characters = Number(row.billed_characters)
    if (row.status === 'error') out.error_message = out.message = row.error_message
    return out
  }

  /** The translated file, once: afterwards the document is gone. */
  async download(documentId: string, kwargs: Kwargs): Promise<{ bytes: Uint8Array; fileName: string; format: DocumentFormat }> {
    const row = await this.find(documentId, kwargs)
    if (row.status === 'queued' || row.status === 'translating') throw new HttpError(503, 'Document not ready')
    if (row.status === 'error') throw new HttpError(400, `Document translation failed: ${row.error_message}`)
    const claimed = await this.o.db.updateTable('documents').set({ status: 'downloaded' }).where('document_id', '=', row.document_id).where('status', '=', 'done').executeTakeFirst()
    if (Number(claimed.numUpdatedRows) !== 1) throw new HttpError(404, DOCUMENT_NOT_FOUND)
    const bytes = await readFile(this.file(row.document_id, 'out'))
    await rm(this.file(row.document_id, 'out'), { force: true })
    return { bytes, fileName: row.file_name, format: row.format as DocumentFormat }
  }

  /** Stops taking jobs and waits for the running ones. */
  async close(): Promise<void> {
    this.closed = true
    await Promise.all(this.running)
  }

  private async find(documentId: string, kwargs: Kwargs) {
    const key = optionalString(kwargs, 'document_key')
    if (key === undefined) throw notSpecified('document_key')
    const row = /^[0-9A-F]{32}$/i.test(documentId)
      ? await this.o.db.selectFrom('documents').selectAll().where('document_id', '=', documentId.toUpperCase()).executeTakeFirst()
      : undefined
    if (!row || row.key_hash !== hash(key.toUpperCase()) || row.status === 'downloaded') throw new HttpError(404, DOCUMENT_NOT_FOUND)
    return row
  }

  private async checkQuota(key: ApiKeyRecord, characters: number): Promise<void> {
    const fresh = (await this.o.keys.get(key.keyId)) ?? key
    if (fresh.characterLimit === null) return
    const used = await this.o.meter.used(fresh)
    if (used + characters > fresh.characterLimit) throw new HttpError(456, 'Quota for this billing period has been exceeded.')
  }

  private enqueue(documentId: string): void {
    this.queue.push(documentId)
    this.pump()
  }

  private pump(): void {
    while (!this.closed && this.running.size < this.o.concurrency && this.queue.length > 0) {
      const id = this.queue.shift()!
      const job: Promise<void> = this.run(id).finally(() => {
        this.running.delete(job)
        this.jobs.delete(id)
        this.pump()
      })
      this.running.add(job)
      this.jobs.set(id, job)
    }
  }

  private async run(documentId: string): Promise<void> {
    const db = this.o.db
    const row = await db.selectFrom('documents').selectAll().where('document_id', '=', documentId).executeTakeFirst()
    if (!row || (row.status !== 'queued' && row.status !== 'translating')) return
    await db.updateTable('documents').set({ status: 'translating' }).where('document_id', '=', documentId).execute()
    try {
      const key = await this.o.keys.get(row.owner_key_id)
      if (!key) throw new HttpError(403, 'The key that uploaded this document no longer exists.')
      const format = row.format as DocumentFormat
      const parts = await extract(format, await readFile(this.file(documentId, 'in')))
      let translations: string[] = []
      let billed = 0
      if (parts.texts.length > 0) {
        const params = readTranslateParams({
          ...(JSON.parse(row.request) as Kwargs), text: parts.texts, tag_handling: parts.tagHandling, outline_detection: '0', ignore_tags: parts.ignoreTags,
        })
        params.showBilledCharacters = true
        // Already in the target language: DeepL ends the job in error (and bills nothing) rather than copy it.
        if (params.sourceLang === undefined && documentLanguage(parts.texts, (t) => this.o.translation.detectLanguage(t)) === baseLanguage(params.targetLang)) {
          throw new HttpError(400, SAME_LANGUAGE)
        }
        const items = await this.o.translation.translate(params, key, '')
        translations = items.map((i) => i.text)
        billed = items.reduce((n, i) => n + (i.billed_characters ?? 0), 0)
      }
      let bytes = parts.rebuild(translations)
      if (format === 'xlf' || format === 'xliff') bytes = setTargetLanguage(bytes, JSON.parse(row.request).target_lang)
      await writeFile(this.file(documentId, 'out'), bytes)
      await db.updateTable('documents').set({ status: 'done', billed_characters: billed }).where('document_id', '=', documentId).execute()
    } catch (error) {
      const message = isHttpError(error) ? error.message : 'The document could not be translated.'
      if (!isHttpError(error)) console.error(`translation: document ${documentId} failed`, error)
      await db.updateTable('documents').set({ status: 'error', error_message: message }).where('document_id', '=', documentId).execute()
    } finally {
      await rm(this.file(documentId, 'in'), { force: true })
    }
  }

  private file(documentId: string, kind: 'in' | 'out'): string {
    return path.join(this.o.dir, `${documentId}.${kind}`)
  }
}

function sameFamily(a: string, b: string): boolean {
  const family = (f: string) => (f === 'htm' ? 'html' : f === 'xlf' ? 'xliff' : f)
  return family(a) === family(b)
}

function hash(documentKey: string): string {
  return createHash('sha256').update(documentKey).digest('hex')
}

function setTargetLanguage(bytes: Uint8Array, target: unknown): Uint8Array {
  const code = String(target ?? '').toLowerCase()
  const text = new TextDecoder().decode(bytes)
  return new TextEncoder().encode(text.replace(/<xliff\b[^>]*>/, (root) => (/\btrgLang\s*=/.test(root) ? root.replace(/\btrgLang\s*=\s*(["'])[^"']*\1/, `trgLang="${code}"`) : root.replace(/\s*(\/?)>$/, ` trgLang="${code}"$1>`))))
}
