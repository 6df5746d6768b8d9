/** GET /v3/aml/monitoring/{job_id}/news/{reference}?news_category=…&page=…&limit=…: articles about one matched person. */
import type { ApiController } from '../http/api-controller.ts'
import { apiError } from '../http/errors.ts'
import { findEntry, type NewsArticle, type NewsCategory } from './screening-list.ts'

/** An article as the route answers it (its category is the query's). */
export type ArticleOut = Omit<NewsArticle, 'news_category'>

/** The query of the news route. */
export interface NewsQuery {
  /**
   * @errorMessage news_category must be one of: arms_trafficking, credit_update, environmental_crime, financial_crime, human_rights_violation, leadership_change, legal_risk, location_change, narcotics, other, other_crime, ownership_change, product_change, regulatory, sexual_crime, technology_event, terrorism, violent_crime
   */
  news_category: NewsCategory
  /**
   * 1 to 100, default 1
   * @integer
   * @minimum 1
   * @maximum 100
   * @errorMessage page must be an integer from 1 to 100
   */
  page?: number
  /**
   * 1 to 100, default 25
   * @integer
   * @minimum 1
   * @maximum 100
   * @errorMessage limit must be an integer from 1 to 100
   */
  limit?: number
}

export async function amlNews(
  c: ApiController,
  jobId: string,
  reference: string,
  { news_category: category, page = 1, limit = 25 }: NewsQuery,
) {
  const job = await c.context.jobs.find(c.auth.partnerId, jobId)
  if (!job || (job.product !== 'aml' && job.product !== 'one_time_aml'))
    throw apiError(404, 'No AML job found for this partner')
  const people = (job.result?.people ?? []) as Array<{ ref?: string }>
  const entry = people.some((p) => p.ref === reference) ? findEntry(reference) : undefined
  if (!entry) throw apiError(404, 'REF not found for this AML job')
  const articles = entry.news.filter((a) => a.news_category === category)
  return {
    job_id: job.id,
    product: 'aml_monitoring_news',
    user_id: job.userId,
    meta: { current_page: page, limit, total_count: articles.length },
    news: articles
      .slice((page - 1) * limit, page * limit)
      .map(({ news_category: _c, ...article }): ArticleOut => article),
  }
}
