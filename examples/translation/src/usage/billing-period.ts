/** The billing period is the calendar month in UTC; usage days are UTC dates (`YYYY-MM-DD`). */

export interface BillingPeriod {
  /** First day, `YYYY-MM-DD`. */
  firstDay: string
  /** Last day, `YYYY-MM-DD`. */
  lastDay: string
  /** Start instant, ISO 8601 with milliseconds. */
  startTime: string
  /** End instant (exclusive: the first instant of the next month). */
  endTime: string
}

export function billingPeriod(now: Date): BillingPeriod {
  const start = new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), 1))
  const end = new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth() + 1, 1))
  return {
    firstDay: utcDay(start),
    lastDay: utcDay(new Date(end.getTime() - 1)),
    startTime: start.toISOString(),
    endTime: end.toISOString(),
  }
}

export function utcDay(date: Date): string {
  return date.toISOString().slice(0, 10)
}
