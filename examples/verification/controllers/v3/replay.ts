import { replayCallback } from '../../src/callbacks/replay.ts'
import { ApiController } from '../../src/http/api-controller.ts'
import { replayParams } from '../../src/http/params.ts'

/** POST /v3/replay/{job_id} */
export class Default extends ApiController {
  static params = { POST: replayParams }

  POST(jobId: string) {
    return replayCallback(this, jobId)
  }
}
