import { Controller, type NoContent, noContent } from 'routeless'
import { jobSignature, signatureOf } from '../../../../src/auth/signature-guard.ts'
import { attachment } from '../../../../src/http/attachment.ts'
import { renderDeepLError } from '../../../../src/http/deepl-error.ts'
import type { Services } from '../../../../src/services.ts'

/**
 * The files of voice translation jobs, authorised by the job's signature (`Authorization: DeepL-Signature …`, or
 * `?signature=` in a pre-signed URL) rather than by a key: PUT …/{job_id}/source, GET …/{job_id}/results/{index}.
 * Without a signature: 401 before the job is looked up; a signature that does not open the job (or no such job): 403.
 */
/** A pre-signed URL's query (the other way to send the signature). */
interface Presigned {
  signature?: string
}

export class Default extends Controller<Services> {
  static renderError = renderDeepLError
  static auth = [jobSignature]
  static accepts = ['application/octet-stream', 'audio/*']
  static consumes = [] as const // the raw file only: a JSON or form body is a 415
  static bodyLimit = 100 * 1024 * 1024

  /** Uploads the job's audio file (the raw body); the job then runs in the background. */
  async PUT_$_source(jobId: string, _query: Presigned = {}): Promise<NoContent> {
    await this.context.voiceJobs.upload(
      jobId,
      signatureOf(this.request, this.url),
      (this.body as Uint8Array | undefined) ?? new Uint8Array(0),
    )
    return noContent()
  }

  /** Downloads one target's output (its audio or text, as an attachment). */
  async GET_$_results(jobId: string, index: number, _query: Presigned = {}): Promise<Response> {
    const { bytes, type, name } = await this.context.voiceJobs.download(
      jobId,
      index,
      signatureOf(this.request, this.url),
    )
    return new Response(bytes as Uint8Array<ArrayBuffer>, {
      headers: {
        'Content-Type': type,
        'Content-Disposition': attachment(name),
      },
    })
  }
}
