import { params } from 'routeless'
import { ApiController } from '../../src/http/api-controller.ts'
import { smileIdToken, unscopedToken } from '../../src/http/authenticate.ts'
import {
  createLink,
  getLink,
  listLinks,
  updateLink,
  type LinkListQuery,
  type LinkRef,
} from '../../src/links/hosted-links-api.ts'
import type { CreateLinkForm, UpdateLinkForm } from '../../src/links/link-fields.ts'

const UNAUTHORIZED = 'Missing or invalid authentication credentials.'
const tags = ['hosted links']

/** POST /v3/hosted_links, GET /v3/hosted_links, GET and PUT /v3/hosted_links/{refId} */
export class Default extends ApiController {
  static params = {
    GET: params({ summary: 'List the hosted links (page, limit; newest first), or fetch one by ref_id', tags }),
    POST: params({ summary: 'Create a hosted link (201)', tags }),
    PUT: params({ summary: 'Change some fields of a hosted link', tags }),
  }
  static auth = [smileIdToken(UNAUTHORIZED), unscopedToken(UNAUTHORIZED)]

  /** Lists the partner's hosted links (paged), or (with a ref id) describes one with its job counts. */
  GET(refId: LinkRef = '', query: LinkListQuery) {
    return refId ? getLink(this, refId) : listLinks(this, query)
  }

  /** Creates a hosted verification link (201). */
  POST(form: CreateLinkForm) {
    return createLink(this, form)
  }

  /** Changes a hosted link (its fixed fields cannot change). */
  PUT(refId: LinkRef, form: UpdateLinkForm) {
    return updateLink(this, refId, form)
  }
}
