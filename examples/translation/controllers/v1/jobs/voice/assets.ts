import { Controller } from 'routeless'
import { attachment } from '../../../../src/http/attachment.ts'
import { renderDeepLError } from '../../../../src/http/deepl-error.ts'
import type { Services } from '../../../../src/services.ts'

/**
 * The files of voice translation jobs, authorised by the job's signature (`Authorization: DeepL-Signature …`, or
 * `?signature=` in a pre-signed URL) rather than by a key: PUT …/{job_id}/source, GET …/{job_id}/results/{index}.
 */
/** A pre-signed URL's query (the other way to send the signature). */
interface Presigned {
  signature?: string
}

export class Default extends Controller<Services> {
  static renderError = renderDeepLError
  static accepts = ['application/octet-stream', 'audio/*']
  static consumes = [] as const // the raw file only: a JSON or form body is a 415
  static bodyLimit = 100 * 1024 * 1024

  /** PUT /v1/jobs/voice/assets/{job_id}/source: the job's audio file (the body, raw). */
  async PUT_$_source(jobId: string, query: Presigned = {}): Promise<Response> {
    await this.context.voiceJobs.upload(
      jobId,
      this.signature(query),
      (this.body as Uint8Array | undefined) ?? new Uint8Array(0),
    )
    return new Response(null, { status: 204 })
  }

  /** GET /v1/jobs/voice/assets/{job_id}/results/{index}: one target's output. */
  async GET_$_results(jobId: string, index: number, query: Presigned = {}): Promise<Response> {
    const { bytes, type, name } = await this.context.voiceJobs.download(jobId, index, this.signature(query))
    return new Response(bytes as Uint8Array<ArrayBuffer>, {
      headers: {
        'Content-Type': type,
        'Content-Disposition': attachment(name),
      },
    })
  }

  private signature({ signature }: Presigned): string | undefined {
    const header = this.request.headers.get('authorization')
    return (header ? /^DeepL-Signature\s+(\S+)$/i.exec(header.trim())?.[1] : undefined) ?? signature
  }
}
