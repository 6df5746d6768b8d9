// What every benchmark server shares: the port from argv, the three workloads' answers, the ready line.
export const port = Number(process.argv[2] ?? process.env.PORT ?? 3000)
export const host = '127.0.0.1'
export const JSON_TYPE = 'application/json' // routeless's JSON type (lifecycle/response.ts)
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

/** The harness waits for this line before loading the server. */
export function ready(actualPort = port) {
  process.stdout.write(`ready ${actualPort}\n`)
}

// Exit normally on a signal, so that `node --cpu-prof` writes its profile.
for (const name of ['SIGINT', 'SIGTERM']) process.on(name, () => process.exit(0))
