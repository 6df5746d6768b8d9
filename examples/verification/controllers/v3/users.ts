import { params } from 'routeless'
import { reportFraud, type FraudReportForm } from '../../src/fraud/report-fraud.ts'
import { ApiController } from '../../src/http/api-controller.ts'
import { smileIdToken } from '../../src/http/authenticate.ts'

/** POST /v3/users/{user_id}/report_fraud */
export class Default extends ApiController {
  static params = {
    POST_$_report_fraud: params({
      summary: 'Report (or clear) a user as fraudulent: every later job of a flagged user is blocked',
      tags: ['fraud'],
    }),
  }
  static auth = smileIdToken('Invalid token')

  /** `userId`: a user the partner has submitted a job for. */
  POST_$_report_fraud(userId: string, form: FraudReportForm) {
    return reportFraud(this, userId, form)
  }
}
