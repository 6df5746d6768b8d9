/** Parameter schemas of the two analytics endpoints (routeless `static params`, DeepL's messages). */
import { params } from 'routeless'
import { z } from 'zod'
import { choice, optionalInteger, requiredText } from '../http/schemas.ts'

export const GROUP_BY_NOT_SUPPORTED = "Value for 'group_by' not supported. Allowed: '', 'key', 'key_and_day'."
export const AGGREGATE_BY_NOT_SUPPORTED = "Value for 'aggregate_by' not supported. Allowed: '', 'period', 'day'."

const dates = {
  start_date: requiredText('start_date').describe('YYYY-MM-DD or YYYY-MM-DDTHH:MM[:SS] (UTC)'),
  end_date: requiredText('end_date').describe('YYYY-MM-DD or YYYY-MM-DDTHH:MM[:SS] (UTC); at most 366 days after start_date'),
}

export const usageReportParams = params({
  summary: 'Usage of all developer keys in a date range',
  tags: ['admin'],
  kwargs: z.object({ group_by: choice('group_by', ['key', 'key_and_day'], GROUP_BY_NOT_SUPPORTED), ...dates }),
})

export const customTagReportParams = params({
  summary: 'Characters per X-DeepL-Reporting-Tag in a date range, paged',
  tags: ['admin'],
  kwargs: z.object({ aggregate_by: choice('aggregate_by', ['period', 'day'], AGGREGATE_BY_NOT_SUPPORTED), ...dates, page: optionalInteger('page') }),
})
