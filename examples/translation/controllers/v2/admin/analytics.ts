import type { KwargsOf } from 'routeless'
import { customTagReportParams, usageReportParams } from '../../../src/analytics/analytics-params.ts'
import { customTagReport } from '../../../src/analytics/custom-tag-report.ts'
import { usageReport } from '../../../src/analytics/usage-report.ts'
import { AdminController } from '../../../src/http/api-controller.ts'

/** GET /v2/admin/analytics?start_date&end_date&group_by */
export class Default extends AdminController {
  static params = { GET: usageReportParams }
  GET(kwargs: KwargsOf<typeof usageReportParams>) {
    return usageReport(kwargs, this.context.usage, this.context.keys)
  }
}

/** GET /v2/admin/analytics/custom-tags?start_date&end_date&aggregate_by&page */
export class CustomTags extends AdminController {
  static params = { GET: customTagReportParams }
  GET(kwargs: KwargsOf<typeof customTagReportParams>) {
    return customTagReport(kwargs, this.context.usage, this.context.customTagPageSize)
  }
}
