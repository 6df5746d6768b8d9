/** The `start_date`/`end_date` pair of both analytics endpoints: UTC dates or date-times, at most 366 days apart. */
import { HttpError } from 'routeless'
import { notSupported } from '../http/params.ts'
import { utcDay } from '../usage/billing-period.ts'

export const MAX_RANGE_DAYS = 366
export const RANGE_TOO_LONG = `Bad request. Reason: Date range cannot exceed ${MAX_RANGE_DAYS} days`

const FORMAT = /^(\d{4})-(\d{2})-(\d{2})(?:T(\d{2}):(\d{2})(?::(\d{2})(?:\.\d{1,3})?)?Z?)?$/

export interface DateRange {
  start: Date
  end: Date
  /** Whole UTC days covered, both inclusive (`YYYY-MM-DD`). */
  firstDay: string
  lastDay: string
}

export function readDateRange(kwargs: { start_date: string; end_date: string }): DateRange {
  const start = parseDate(kwargs, 'start_date')
  const end = parseDate(kwargs, 'end_date')
  if (end.getTime() < start.getTime())
    throw new HttpError(400, 'Bad request. Reason: end_date must not be before start_date')
  if (end.getTime() - start.getTime() > MAX_RANGE_DAYS * 86_400_000) throw new HttpError(400, RANGE_TOO_LONG)
  return { start, end, firstDay: utcDay(start), lastDay: utcDay(end) }
}

/** `2025-09-29T00:00:00`: how the reports echo the range (no zone, no milliseconds). */
export function formatWithoutZone(date: Date): string {
  return date.toISOString().slice(0, 19)
}

/** `2025-09-29T00:00:00Z`: a usage day in the reports. */
export function formatUsageDate(day: string): string {
  return `${day}T00:00:00Z`
}

function parseDate(kwargs: { start_date: string; end_date: string }, name: 'start_date' | 'end_date'): Date {
  const raw = kwargs[name].trim()
  const m = FORMAT.exec(raw)
  if (!m) throw notSupported(name)
  const [, y, mo, d, h = '0', mi = '0', s = '0'] = m
  const date = new Date(Date.UTC(Number(y), Number(mo) - 1, Number(d), Number(h), Number(mi), Number(s)))
  // Rejects 2025-02-30 and 25:00 (Date.UTC would roll them over).
  if (
    date.getUTCMonth() !== Number(mo) - 1 ||
    date.getUTCDate() !== Number(d) ||
    date.getUTCHours() !== Number(h) ||
    date.getUTCMinutes() !== Number(mi)
  ) {
    throw notSupported(name)
  }
  return date
}
