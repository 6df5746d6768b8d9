import { multipartForm } from '../../src/forms/multipart.ts'
import { ApiController } from '../../src/http/api-controller.ts'
import { smileIdToken, unscopedToken } from '../../src/http/authenticate.ts'
import { createLink, getLink, listLinks, updateLink } from '../../src/links/hosted-links-api.ts'
import { hostedLinksCreateParams, hostedLinksGetParams, hostedLinksUpdateParams } from '../../src/http/params.ts'

const UNAUTHORIZED = 'Missing or invalid authentication credentials.'

/** POST /v3/hosted_links, GET /v3/hosted_links, GET and PUT /v3/hosted_links/{refId} */
export class Default extends ApiController {
  static params = { GET: hostedLinksGetParams, POST: hostedLinksCreateParams, PUT: hostedLinksUpdateParams }
  static auth = [smileIdToken(UNAUTHORIZED), unscopedToken(UNAUTHORIZED)]

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
