/** The paging parameters of DeepL's v3 lists, as types the handlers declare (routeless checks them). */

/**
 * 0-based page index.
 * @integer
 * @minimum 0
 * @maximum 1000000
 */
export type PageIndex = number

/**
 * Items per page of a list.
 * @integer
 * @minimum 1
 * @maximum 25
 */
export type ListPageSize = number

/** `page` and `page_size` of a list (defaults 0 and 10). */
export interface ListPage {
  page?: PageIndex | null
  page_size?: ListPageSize | null
  /** Extra parameters a client passes through are accepted and ignored. */
  [extra: string]: unknown
}

export const DEFAULT_PAGE_SIZE = 10
