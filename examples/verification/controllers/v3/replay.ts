import { params } from 'routeless'
import { replayCallback, type ReplayForm, type ReplayJobId } from '../../src/callbacks/replay.ts'
import { ApiController } from '../../src/http/api-controller.ts'

/** POST /v3/replay/{job_id} */
export class Default extends ApiController {
  static params = {
    POST: params({ summary: "Send a decided job's result to its callback URL again, freshly signed", tags: ['jobs'] }),
  }

  /** Sends a finished job's callback again, optionally to another URL (202). */
  POST(jobId: ReplayJobId, form: ReplayForm) {
    return replayCallback(this, jobId, form)
  }
}
