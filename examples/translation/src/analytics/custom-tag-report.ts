/** `GET /v2/admin/analytics/custom-tags`: characters per `X-DeepL-Reporting-Tag`, per period or per day, paged. */
import type { UsageStore } from '../usage/usage-store.ts'
import { customTagBreakdown } from './breakdown.ts'
import type { CustomTagReportQuery } from './analytics-params.ts'
import { formatUsageDate, formatWithoutZone, readDateRange } from './date-range.ts'

export async function customTagReport(kwargs: CustomTagReportQuery, usage: UsageStore, pageSize: number) {
  const aggregateBy = kwargs.aggregate_by === 'day' ? 'day' : 'period'
  const range = readDateRange(kwargs)
  const page = kwargs.page ?? 0

  const sums = new Map<string, { tag: string; day: string; characters: number }>()
  for (const r of await usage.rows(range.firstDay, range.lastDay)) {
    if (r.customTag === '') continue
    const id = aggregateBy === 'day' ? `${r.day} ${r.customTag}` : r.customTag
    const sum = sums.get(id) ?? { tag: r.customTag, day: r.day, characters: 0 }
    sum.characters += r.characters
    sums.set(id, sum)
  }
  const all = [...sums.values()].sort(
    (a, b) => (aggregateBy === 'day' ? a.day.localeCompare(b.day) : 0) || a.tag.localeCompare(b.tag),
  )
  const items = all.slice(page * pageSize, (page + 1) * pageSize).map((s) => {
    const item: Record<string, unknown> = { custom_tag: s.tag }
    if (aggregateBy === 'day') item.usage_date = formatUsageDate(s.day)
    item.breakdown = customTagBreakdown(s.characters)
    return item
  })
  return {
    custom_tag_usage_report: {
      aggregate_by: aggregateBy,
      start_date: formatWithoutZone(range.start),
      end_date: formatWithoutZone(range.end),
      next_page: (page + 1) * pageSize < all.length ? page + 1 : null,
      usage: items,
    },
  }
}
