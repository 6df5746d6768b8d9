// GET /users/123/posts/456?x=1 → users.mjs Default.GET_$_posts('123', '456', { x: '1' }) (a sub-resource after an id)
export class Default {
  GET_$_posts(user, post, { x }) {
    return { user, post, x }
  }
}
