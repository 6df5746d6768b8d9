/** GET /v3/aml/monitoring/{job_id}/news/{reference}?news_category=…&page=…&limit=…: articles about one matched person. */
import type { ApiController } from '../http/api-controller.ts'
import { apiError } from '../http/errors.ts'
import { findEntry, NEWS_CATEGORIES } from './screening-list.ts'

export async function amlNews(c: ApiController, jobId: string, reference: string, query: Record<string, unknown>) {
  const category = query.news_category
  if (category === undefined || category === '') throw apiError(400, 'news_category is required')
  if (typeof category !== 'string' || !(NEWS_CATEGORIES as readonly string[]).includes(category)) {
    throw apiError(400, `news_category must be one of: ${NEWS_CATEGORIES.join(', ')}`)
  }
  const page = bounded(query.page, 'page', 1)
  const limit = bounded(query.limit, 'limit', 25)
  const job = await c.context.jobs.find(c.auth.partnerId, jobId)
  if (!job || (job.product !== 'aml' && job.product !== 'one_time_aml')) throw apiError(404, 'No AML job found for this partner')
  const people = (job.result?.people ?? []) as Array<{ ref?: string }>
  const entry = people.some((p) => p.ref === reference) ? findEntry(reference) : undefined
  if (!entry) throw apiError(404, 'REF not found for this AML job')
  const articles = entry.news.filter((a) => a.news_category === category)
  return {
    job_id: job.id,
    product: 'aml_monitoring_news',
    user_id: job.userId,
    meta: { current_page: page, limit, total_count: articles.length },
    news: articles.slice((page - 1) * limit, page * limit).map(({ news_category: _c, ...a }) => a),
  }
}

function bounded(value: unknown, name: string, fallback: number): number {
  if (value === undefined || value === '') return fallback
  const n = typeof value === 'string' && /^\d{1,3}$/.test(value) ? Number(value) : NaN
  if (!(n >= 1 && n <= 100)) throw apiError(400, `${name} must be an integer from 1 to 100`)
  return n
}
