import { created } from 'routeless'
import { ApiController } from '../../../../src/http/api-controller.ts'
import type { VoiceJobCreateRequest } from '../../../../src/voice/voice-job-request.ts'

/** POST /v1/jobs/voice/translate (create → 201 with upload URL and signature), GET /v1/jobs/voice/translate/{job_id} (status). */
export class Default extends ApiController {
  /** Creates a voice translation job; the audio is uploaded next, to `upload_url`. */
  async POST(kwargs: VoiceJobCreateRequest) {
    return created(await this.context.voiceJobs.create(this.key.keyId, kwargs, this.url.origin))
  }

  /** The job's status, with one result per target (a download URL once complete). */
  GET(jobId: string, { include = [] }: { include?: Array<'signed_url'> }) {
    return this.context.voiceJobs.status(this.key.keyId, jobId, include, this.url.origin)
  }
}
