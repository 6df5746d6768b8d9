/**
 * Voice translation jobs (`/v1/jobs/voice/translate`, alpha in the spec): create (metadata → an upload URL and a
 * signature), upload (`PUT` with `Authorization: DeepL-Signature …`), then the shared background queue runs the job
 * — decode, cut into utterances, recognise, translate per target, write each output — and the status lists one
 * result per target, each downloadable once complete. Speech is billed (milliseconds of source audio) in the
 * transaction that completes the job, so a job is billed once whichever instance runs it.
 */
import { createHash, randomBytes, randomUUID, timingSafeEqual } from 'node:crypto'
import type { ClaimedJob, JobQueue } from '@routeless/example-kit'
import type { Kysely, Transaction } from 'kysely'
import { HttpError } from 'routeless'
import { SIGNATURE_MISSING } from '../auth/signature-guard.ts'
import type { TranslationDatabase } from '../database/schema.ts'
import type { KeyStore } from '../keys/key-store.ts'
import { AudioFormatError, createDecoder } from '../speech/audio-format.ts'
import { readWav, Resampler, SPEECH_RATE } from '../speech/pcm.ts'
import { withTimeout, type SpeechEngine, type SpeechSynthesizer } from '../speech/speech-engine.ts'
import type { TranslationService } from '../translate/translation-service.ts'
import { QUOTA_MESSAGE } from '../usage/meter.ts'
import { Segmenter } from './segmenter.ts'
import type { SpeechUsage } from './speech-usage.ts'
import { translateSpoken } from './spoken-translation.ts'
import { readVoiceJobRequest, type VoiceJobCreateRequest, type VoiceJobSpec } from './voice-job-request.ts'
import { contentTypeOf, pcmBytes, plainText, subrip, type TimedText } from './voice-job-output.ts'

export const VOICE_JOB = 'voice-translate'
const NOT_FOUND = 'Job not found.'
const BAD_SIGNATURE = 'Authorization failed: the signature is not valid for this job.'
const FAILED = 'processing failed'
const SIGNATURE_TTL_MS = 24 * 60 * 60 * 1000

type ResultStatus = 'pending' | 'uploaded' | 'processing' | 'complete' | 'downloaded' | 'failed'
interface StoredResult {
  status: ResultStatus
  error?: { message: string }
}

/** What creating a voice job answers: its id, where its audio is uploaded, and the signature that upload needs. */
export interface VoiceJobCreated {
  job_id: string
  upload_url: string
  signature: string
  /** With `include: ['signed_url']`: `upload_url` with the signature in its query. */
  signed_upload_url?: string
}

export interface VoiceJobsOptions {
  db: Kysely<TranslationDatabase>
  queue: JobQueue
  keys: KeyStore
  usage: SpeechUsage
  translation: TranslationService
  speech: SpeechEngine
  synthesizer: SpeechSynthesizer
  engineTimeoutMs: number
  maxBytes: number
  now: () => Date
}

const sha256 = (s: string) => createHash('sha256').update(s).digest('hex')

export class VoiceJobs {
  constructor(private readonly o: VoiceJobsOptions) {
    o.queue.handle(VOICE_JOB, (job) => this.run(job), {
      maxAttempts: 3,
      giveUp: (job, _error, trx) => this.fail(trx as unknown as Transaction<TranslationDatabase>, job.ref, FAILED),
    })
  }

  async create(keyId: string, body: VoiceJobCreateRequest, origin: string): Promise<VoiceJobCreated> {
    const spec = readVoiceJobRequest(body, this.o.maxBytes)
    if ((await this.o.usage.remaining(keyId)) <= 0) throw new HttpError(456, QUOTA_MESSAGE)
    const jobId = randomUUID()
    const signature = randomBytes(32).toString('base64url')
    const now = this.o.now().toISOString()
    await this.o.db
      .insertInto('voice_jobs')
      .values({
        job_id: jobId,
        key_id: keyId,
        signature_hash: sha256(signature),
        request: JSON.stringify(spec),
        status: 'pending',
        results: JSON.stringify(spec.targets.map((): StoredResult => ({ status: 'pending' }))),
        source: null,
        created_at: now,
        updated_at: now,
      })
      .execute()
    const uploadUrl = `${origin}/v1/jobs/voice/assets/${jobId}/source`
    return {
      job_id: jobId,
      upload_url: uploadUrl,
      signature,
      ...(body.include?.includes('signed_url') ? { signed_upload_url: `${uploadUrl}?signature=${signature}` } : {}),
    }
  }

  /** `PUT upload_url`: the source file, once, exactly `content_length` bytes. */
  async upload(jobId: string, signature: string | undefined, bytes: Uint8Array): Promise<void> {
    const row = await this.signed(jobId, signature, 'upload')
    if (row.status !== 'pending') throw new HttpError(409, 'The source file of this job was uploaded already.')
    const spec = JSON.parse(row.request) as VoiceJobSpec
    if (bytes.byteLength !== spec.sourceFile.content_length) {
      throw new HttpError(
        400,
        `The upload has ${bytes.byteLength} bytes; the job was created for content_length ${spec.sourceFile.content_length}.`,
      )
    }
    await this.o.db.transaction().execute(async (trx) => {
      const done = await trx
        .updateTable('voice_jobs')
        .set({
          status: 'uploaded',
          source: bytes,
          results: JSON.stringify(spec.targets.map((): StoredResult => ({ status: 'uploaded' }))),
          updated_at: this.o.now().toISOString(),
        })
        .where('job_id', '=', jobId)
        .where('status', '=', 'pending')
        .executeTakeFirst()
      if (Number(done.numUpdatedRows) !== 1)
        throw new HttpError(409, 'The source file of this job was uploaded already.')
      await this.o.queue.enqueue({ kind: VOICE_JOB, ref: jobId }, trx)
    })
    this.o.queue.wake()
  }

  async status(keyId: string, jobId: string, include: string[], origin: string) {
    if (!/^[0-9a-f-]{36}$/i.test(jobId)) throw new HttpError(404, NOT_FOUND)
    const row = await this.o.db
      .selectFrom('voice_jobs')
      .select(['job_id', 'key_id', 'status', 'request', 'results', 'created_at', 'updated_at', 'signature_hash'])
      .where('job_id', '=', jobId.toLowerCase())
      .where('key_id', '=', keyId)
      .executeTakeFirst()
    if (!row) throw new HttpError(404, NOT_FOUND)
    const spec = JSON.parse(row.request) as VoiceJobSpec
    const results = JSON.parse(row.results) as StoredResult[]
    const sizes = await this.o.db
      .selectFrom('voice_job_outputs')
      .select(['target_index', (eb) => eb.fn('length', ['bytes']).as('size')])
      .where('job_id', '=', row.job_id)
      .execute()
    const stored = row.status === 'uploaded' || row.status === 'processing' ? spec.sourceFile.content_length : 0
    const storage = stored + sizes.reduce((n, s) => n + Number(s.size), 0)
    const signature = downloadSignature(row.job_id, row.signature_hash)
    return {
      job_id: row.job_id,
      product: 'voice',
      operation: 'translate',
      created_at: row.created_at,
      updated_at: row.updated_at,
      usage: { storage_used: storage },
      source_file: spec.sourceFile,
      parameters: spec.sourceLanguage ? { source_language: spec.sourceLanguage } : {},
      targets: spec.targets,
      results: results.map((r, i) => {
        if (r.status !== 'complete' && r.status !== 'downloaded') return r
        const url = `${origin}/v1/jobs/voice/assets/${row.job_id}/results/${i}`
        return {
          status: r.status,
          download_url: url,
          signature,
          ...(include.includes('signed_url') ? { signed_download_url: `${url}?signature=${signature}` } : {}),
        }
      }),
    }
  }

  /** `GET download_url`: one target's output. */
  async download(
    jobId: string,
    index: number,
    signature: string | undefined,
  ): Promise<{ bytes: Uint8Array; type: string; name: string }> {
    const row = await this.signed(jobId, signature, 'download')
    const spec = JSON.parse(row.request) as VoiceJobSpec
    const results = JSON.parse(row.results) as StoredResult[]
    const target = spec.targets[index]
    if (!target) throw new HttpError(404, 'No such result.')
    if (results[index]!.status !== 'complete' && results[index]!.status !== 'downloaded')
      throw new HttpError(409, `The result is ${results[index]!.status}, not complete.`)
    const output = await this.o.db
      .selectFrom('voice_job_outputs')
      .select('bytes')
      .where('job_id', '=', row.job_id)
      .where('target_index', '=', index)
      .executeTakeFirst()
    if (!output) throw new HttpError(404, 'No such result.')
    if (results[index]!.status === 'complete') {
      results[index] = { status: 'downloaded' }
      await this.o.db
        .updateTable('voice_jobs')
        .set({ results: JSON.stringify(results), updated_at: this.o.now().toISOString() })
        .where('job_id', '=', row.job_id)
        .execute()
    }
    const extension = target.type === 'text/plain' ? 'txt' : target.type === 'application/x-subrip' ? 'srt' : 'pcm'
    return {
      bytes: new Uint8Array(output.bytes),
      type: contentTypeOf(target.type),
      name: `${spec.sourceFile.name.replace(/\.[^.]*$/, '')}.${target.language}.${extension}`,
    }
  }

  /** The job, when `signature` is its upload signature (`upload`), or its upload or download signature. */
  private async signed(jobId: string, signature: string | undefined, purpose: 'upload' | 'download') {
    // The signature first: whether a job exists is told only to whoever holds its signature.
    if (!signature) throw new HttpError(401, SIGNATURE_MISSING)
    const row = /^[0-9a-f-]{36}$/i.test(jobId)
      ? await this.o.db
          .selectFrom('voice_jobs')
          .selectAll()
          .where('job_id', '=', jobId.toLowerCase())
          .executeTakeFirst()
      : undefined
    if (!row) throw new HttpError(403, BAD_SIGNATURE)
    const expired = Date.parse(row.created_at) + SIGNATURE_TTL_MS <= this.o.now().getTime()
    const candidates =
      purpose === 'upload'
        ? [row.signature_hash]
        : [row.signature_hash, sha256(downloadSignature(row.job_id, row.signature_hash))]
    const given = sha256(signature)
    const match = candidates.some((c) => timingSafeEqual(Buffer.from(c), Buffer.from(given)))
    if (!match || expired) throw new HttpError(403, BAD_SIGNATURE)
    return row
  }

  private async run(job: ClaimedJob): Promise<void> {
    const db = this.o.db
    const row = await db.selectFrom('voice_jobs').selectAll().where('job_id', '=', job.ref).executeTakeFirst()
    if (!row || (row.status !== 'uploaded' && row.status !== 'processing')) return void (await job.complete())
    const spec = JSON.parse(row.request) as VoiceJobSpec
    await db
      .updateTable('voice_jobs')
      .set({
        status: 'processing',
        results: JSON.stringify(spec.targets.map((): StoredResult => ({ status: 'processing' }))),
        updated_at: this.o.now().toISOString(),
      })
      .where('job_id', '=', job.ref)
      .execute()
    let samples: Int16Array
    try {
      samples = await decodeFile(spec.sourceFile.content_type, new Uint8Array(row.source!))
    } catch (error) {
      const message =
        error instanceof AudioFormatError
          ? error.message
          : `The source file could not be decoded: ${(error as Error).message}`
      await job.complete((trx) => this.fail(trx as unknown as Transaction<TranslationDatabase>, job.ref, message))
      return
    }
    const key = await this.o.keys.get(row.key_id)
    if (!key)
      return void (await job.complete((trx) =>
        this.fail(trx as unknown as Transaction<TranslationDatabase>, job.ref, 'The key of this job no longer exists.'),
      ))
    // Recognise each utterance once; translate it per target language.
    const segmenter = new Segmenter({ partialMs: 1e9 })
    const utterances = [...segmenter.push(samples).concluded]
    const last = segmenter.flush()
    if (last) utterances.push(last)
    const spoken: TimedText[] = []
    for (const u of utterances) {
      const r = await withTimeout(this.o.speech.name, this.o.engineTimeoutMs, (signal) =>
        this.o.speech.transcribe(u.samples, spec.sourceLanguage, signal),
      )
      if (r.text) spoken.push({ text: r.text, startMs: u.startMs, endMs: u.endMs })
    }
    const outputs: Uint8Array[] = []
    const byLanguage = new Map<string, TimedText[]>()
    for (const target of spec.targets) {
      let lines = byLanguage.get(target.language)
      if (!lines) {
        lines = []
        for (const s of spoken)
          lines.push({
            ...s,
            text: await translateSpoken(this.o.translation, key, s.text, spec.sourceLanguage, target.language),
          })
        byLanguage.set(target.language, lines)
      }
      if (target.type === 'text/plain') outputs.push(plainText(lines))
      else if (target.type === 'application/x-subrip') outputs.push(subrip(lines))
      else {
        const rate = Number(/rate=(\d+)/.exec(target.type)![1])
        const text = lines.map((l) => l.text).join(' ')
        const speech = text
          ? await withTimeout(this.o.synthesizer.name, this.o.engineTimeoutMs, (signal) =>
              this.o.synthesizer.synthesize(text, target.language, undefined, rate, signal),
            )
          : new Int16Array(0)
        outputs.push(pcmBytes(speech))
      }
    }
    const milliseconds = Math.ceil((samples.length * 1000) / SPEECH_RATE)
    await job.complete(async (queueTrx) => {
      const trx = queueTrx as unknown as Transaction<TranslationDatabase>
      for (const [i, bytes] of outputs.entries())
        await trx.insertInto('voice_job_outputs').values({ job_id: job.ref, target_index: i, bytes }).execute()
      await trx
        .updateTable('voice_jobs')
        .set({
          status: 'done',
          source: null,
          results: JSON.stringify(spec.targets.map((): StoredResult => ({ status: 'complete' }))),
          updated_at: this.o.now().toISOString(),
        })
        .where('job_id', '=', job.ref)
        .execute()
      await this.o.usage.add(row.key_id, milliseconds, trx)
    })
  }

  private async fail(trx: Transaction<TranslationDatabase>, jobId: string, message: string): Promise<void> {
    const row = await trx.selectFrom('voice_jobs').select('request').where('job_id', '=', jobId).executeTakeFirst()
    if (!row) return
    const spec = JSON.parse(row.request) as VoiceJobSpec
    await trx
      .updateTable('voice_jobs')
      .set({
        status: 'done',
        source: null,
        results: JSON.stringify(spec.targets.map((): StoredResult => ({ status: 'failed', error: { message } }))),
        updated_at: this.o.now().toISOString(),
      })
      .where('job_id', '=', jobId)
      .execute()
  }
}

/**
 * The signature of a job's downloads, shown by its status: derived from the stored hash of the upload signature (the
 * signature itself is never stored), so it is as unguessable and cannot be turned back into the upload signature.
 */
function downloadSignature(jobId: string, signatureHash: string): string {
  return sha256(`download:${jobId}:${signatureHash}`)
}

/** A whole source file → 16 kHz mono samples (PCM WAV, or Ogg/Opus). */
export async function decodeFile(contentType: string, bytes: Uint8Array): Promise<Int16Array> {
  if (contentType === 'audio/wav') {
    let wav
    try {
      wav = readWav(bytes)
    } catch (error) {
      throw new AudioFormatError(`The source file is not a PCM WAV file: ${(error as Error).message}.`)
    }
    return new Resampler(wav.rate).push(wav.samples)
  }
  const decoder = createDecoder('audio/ogg;codecs=opus')
  try {
    const head = await decoder.push(bytes)
    const tail = await decoder.end()
    const out = new Int16Array(head.length + tail.length)
    out.set(head)
    out.set(tail, head.length)
    return out
  } finally {
    decoder.free()
  }
}
