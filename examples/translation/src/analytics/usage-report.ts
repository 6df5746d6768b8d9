/** `GET /v2/admin/analytics`: totals for a date range, optionally per key or per key and day. */
import type { KeyStore } from '../keys/key-store.ts'
import type { UsageStore } from '../usage/usage-store.ts'
import { usageBreakdown } from './breakdown.ts'
import type { UsageReportQuery } from './analytics-params.ts'
import { formatUsageDate, formatWithoutZone, readDateRange } from './date-range.ts'

export async function usageReport(kwargs: UsageReportQuery, usage: UsageStore, keys: KeyStore) {
  const groupBy = kwargs.group_by ?? ''
  const range = readDateRange(kwargs)
  const rows = await usage.rows(range.firstDay, range.lastDay)
  const report: Record<string, unknown> = {
    total_usage: usageBreakdown(rows.reduce((n, r) => n + r.characters, 0)),
  }
  if (groupBy !== '') report.group_by = groupBy
  report.start_date = formatWithoutZone(range.start)
  report.end_date = formatWithoutZone(range.end)
  if (groupBy === '') return { usage_report: report }

  const sums = new Map<string, { keyId: string; day: string; characters: number }>()
  for (const r of rows) {
    const id = groupBy === 'key' ? r.keyId : `${r.day} ${r.keyId}`
    const sum = sums.get(id) ?? { keyId: r.keyId, day: r.day, characters: 0 }
    sum.characters += r.characters
    sums.set(id, sum)
  }
  const described = await keys.describe([...new Set(rows.map((r) => r.keyId))])
  const items = [...sums.values()].map((s) => {
    const key = described.get(s.keyId)
    const item: Record<string, unknown> = { api_key: key?.masked ?? '****', api_key_label: key?.label ?? '' }
    if (groupBy === 'key_and_day') item.usage_date = formatUsageDate(s.day)
    item.usage = usageBreakdown(s.characters)
    return item
  })
  report[groupBy === 'key' ? 'key_usages' : 'key_and_day_usages'] = items
  return { usage_report: report }
}
