import { replayCallback } from '../../src/callbacks/replay.ts'
import { ApiController } from '../../src/http/api-controller.ts'

/** POST /v3/replay/{job_id} */
export class Default extends ApiController {
  POST(jobId: string) {
    return replayCallback(this, jobId)
  }
}
