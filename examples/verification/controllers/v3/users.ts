import { reportFraud } from '../../src/fraud/report-fraud.ts'
import { multipartForm } from '../../src/forms/multipart.ts'
import { ApiController } from '../../src/http/api-controller.ts'
import { smileIdToken } from '../../src/http/authenticate.ts'
import { reportFraudParams } from '../../src/http/params.ts'

/** POST /v3/users/{user_id}/report_fraud */
export class Default extends ApiController {
  static params = { POST_$_report_fraud: reportFraudParams }
  static auth = smileIdToken('Invalid token')

  POST_$_report_fraud(userId: string) {
    return reportFraud(this, userId, multipartForm(this))
  }
}
