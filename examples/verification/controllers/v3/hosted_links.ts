import { multipartForm } from '../../src/forms/multipart.ts'
import { ApiController } from '../../src/http/api-controller.ts'
import { createLink, getLink, listLinks, updateLink } from '../../src/links/hosted-links-api.ts'
import { requireUnscopedToken } from '../../src/links/link-auth.ts'

/** POST /v3/hosted_links, GET /v3/hosted_links, GET and PUT /v3/hosted_links/{refId} */
export class Default extends ApiController {
  static unauthorized = 'Missing or invalid authentication credentials.'

  async before() {
    await super.before()
    requireUnscopedToken(this)
  }

  GET(refId = '', kwargs: Record<string, unknown>) {
    return refId ? getLink(this, refId) : listLinks(this, kwargs)
  }

  async POST() {
    return createLink(this, multipartForm(this))
  }

  async PUT(refId: string) {
    return updateLink(this, refId, multipartForm(this))
  }
}
