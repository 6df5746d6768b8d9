// The workloads' answers, shared by every server and the harness: pure data and functions, nothing that needs a
// process (no argv, no signal handlers), so that a Worker bundle (workerd-raw, hono-workerd, routeless-workerd) can
// import them. _common.mjs re-exports them beside the server scripts' process parts.
export const JSON_TYPE = 'application/json' // routeless's JSON type (runtime/lifecycle/response.ts)
/** (a) GET /hello */
export const HELLO = JSON.stringify('Hello, World!')
/** (b) GET /users/:user/posts/:post?x=1 */
export const echoParams = (user, post, x) => ({ user, post, x })

/** (d) GET /accounts/:id/orders?limit=n with `Authorization: Bearer <BENCH_TOKEN>`: a guarded, typed read. */
export const BENCH_TOKEN = 'bench-token-0123456789'
const STATUSES = ['open', 'paid', 'shipped']
/** The orders of account `id`, `limit` of them: the answer of workload (d). */
export const accountOrders = (id, limit) => ({
  account: id,
  limit,
  orders: Array.from({ length: limit }, (_, i) => ({ id: id * 100 + i, total: 9.5 + i, status: STATUSES[i % 3] })),
})
