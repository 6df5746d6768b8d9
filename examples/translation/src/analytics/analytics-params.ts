/** The query parameters of the two analytics endpoints, as the handlers' types (routeless checks them). */
import type { PageIndex } from '../http/paging.ts'

export const GROUP_BY_NOT_SUPPORTED = "Value for 'group_by' not supported. Allowed: '', 'key', 'key_and_day'."
export const AGGREGATE_BY_NOT_SUPPORTED = "Value for 'aggregate_by' not supported. Allowed: '', 'period', 'day'."

/** @errorMessage Value for 'group_by' not supported. Allowed: '', 'key', 'key_and_day'. */
export type GroupBy = '' | 'key' | 'key_and_day'

/** @errorMessage Value for 'aggregate_by' not supported. Allowed: '', 'period', 'day'. */
export type AggregateBy = '' | 'period' | 'day'

/** A date range: UTC dates or date-times, at most 366 days apart (date-range.ts). */
export interface DateRangeQuery {
  /** YYYY-MM-DD or YYYY-MM-DDTHH:MM[:SS] (UTC) */
  start_date: string
  /** YYYY-MM-DD or YYYY-MM-DDTHH:MM[:SS] (UTC); at most 366 days after start_date */
  end_date: string
  [extra: string]: unknown
}

/** GET /v2/admin/analytics: usage of all developer keys in a date range. */
export interface UsageReportQuery extends DateRangeQuery {
  group_by?: GroupBy | null
}

/** GET /v2/admin/analytics/custom-tags: characters per X-DeepL-Reporting-Tag in a date range, paged. */
export interface CustomTagReportQuery extends DateRangeQuery {
  aggregate_by?: AggregateBy | null
  page?: PageIndex | null
}
