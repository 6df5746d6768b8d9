import { Controller, HttpError } from 'routeless'
import { renderDeepLError } from '../../../../src/http/deepl-error.ts'
import type { Services } from '../../../../src/services.ts'

/**
 * The files of voice translation jobs, authorised by the job's signature (`Authorization: DeepL-Signature …`, or
 * `?signature=` in a pre-signed URL) rather than by a key: PUT …/{job_id}/source, GET …/{job_id}/results/{index}.
 */
export class Default extends Controller<Services> {
  static renderError = renderDeepLError
  static accepts = ['application/octet-stream', 'audio/*']
  static bodyLimit = 100 * 1024 * 1024

  /** PUT /v1/jobs/voice/assets/{job_id}/source: the job's audio file. */
  async PUT_$_source(jobId: string): Promise<Response> {
    if (!(this.body instanceof Uint8Array)) throw new HttpError(415, 'Send the audio file as the body, with Content-Type application/octet-stream.')
    await this.context.voiceJobs.upload(jobId, this.signature(), this.body)
    return new Response(null, { status: 204 })
  }

  /** GET /v1/jobs/voice/assets/{job_id}/results/{index}: one target's output. */
  async GET_$_results(jobId: string, index: number): Promise<Response> {
    const { bytes, type, name } = await this.context.voiceJobs.download(jobId, index, this.signature())
    return new Response(bytes as Uint8Array<ArrayBuffer>, { headers: { 'Content-Type': type, 'Content-Disposition': `attachment; filename="${name.replace(/["\\\r\n]/g, '_')}"` } })
  }

  private signature(): string | undefined {
    const header = this.request.headers.get('authorization')
    const fromHeader = header ? /^DeepL-Signature\s+(\S+)$/i.exec(header.trim())?.[1] : undefined
    return fromHeader ?? (typeof this.kwargs.signature === 'string' ? this.kwargs.signature : undefined)
  }
}
