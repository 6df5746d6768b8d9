import { params } from 'routeless'
import type { CustomTagReportQuery, UsageReportQuery } from '../../../src/analytics/analytics-params.ts'
import { customTagReport } from '../../../src/analytics/custom-tag-report.ts'
import { usageReport } from '../../../src/analytics/usage-report.ts'
import { AdminController } from '../../../src/http/api-controller.ts'

/** GET /v2/admin/analytics?start_date&end_date&group_by */
export class Default extends AdminController {
  static params = { GET: params({ summary: 'Usage of all developer keys in a date range', tags: ['admin'] }) }
  /** The organization's usage between two dates, optionally grouped by key and/or day. */
  GET(query: UsageReportQuery) {
    return usageReport(query, this.context.usage, this.context.keys)
  }
}

/** GET /v2/admin/analytics/custom-tags?start_date&end_date&aggregate_by&page */
export class CustomTags extends AdminController {
  static params = {
    GET: params({ summary: 'Characters per X-DeepL-Reporting-Tag in a date range, paged', tags: ['admin'] }),
  }
  /** Usage by custom tag between two dates, a page at a time. */
  GET(query: CustomTagReportQuery) {
    return customTagReport(query, this.context.usage, this.context.customTagPageSize)
  }
}
