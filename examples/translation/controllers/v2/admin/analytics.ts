import { AdminController } from '../../../src/http/api-controller.ts'
import { customTagReport } from '../../../src/analytics/custom-tag-report.ts'
import { usageReport } from '../../../src/analytics/usage-report.ts'

/** GET /v2/admin/analytics?start_date&end_date&group_by */
export class Default extends AdminController {
  GET() {
    return usageReport(this.kwargs, this.context.usage, this.context.keys)
  }
}

/** GET /v2/admin/analytics/custom-tags?start_date&end_date&aggregate_by&page */
export class CustomTags extends AdminController {
  GET() {
    return customTagReport(this.kwargs, this.context.usage, this.context.customTagPageSize)
  }
}
