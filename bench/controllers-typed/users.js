// The params workload with a typed signature (JSDoc types: the analyser reads them as it reads TypeScript): the
// path parts are coerced to numbers and checked, `x` is required and no other keyword is accepted.
export class Default {
  /**
   * @param {number} user
   * @param {number} post
   * @param {{ x: string }} kwargs
   */
  GET_$_posts(user, post, kwargs) {
    // The same bytes as the untyped peer: the numbers are sent back as the strings they came as.
    return { user: String(user), post: String(post), x: kwargs.x }
  }
}
