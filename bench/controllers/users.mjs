// GET /users/123/posts/456?x=1 → users.mjs Default.GET('123', 'posts', '456', { x: '1' })
import { HttpError } from 'routeless'

export class Default {
  GET(user, kind, post, { x }) {
    if (kind !== 'posts') throw new HttpError(404)
    return { user, post, x }
  }
}
