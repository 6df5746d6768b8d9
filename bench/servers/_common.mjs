// What every benchmark server script shares: the port from argv, the ready line, exit on a signal; and the three
// workloads' answers (_workloads.mjs, which modules bundled into a Worker import directly: a Worker has no process).
export { accountOrders, BENCH_TOKEN, echoParams, HELLO, JSON_TYPE } from './_workloads.mjs'

export const port = Number(process.argv[2] ?? process.env.PORT ?? 3000)
export const host = '127.0.0.1'

/** The harness waits for this line before loading the server. */
export function ready(actualPort = port) {
  process.stdout.write(`ready ${actualPort}\n`)
}

// Exit normally on a signal, so that `node --cpu-prof` writes its profile.
for (const name of ['SIGINT', 'SIGTERM']) process.on(name, () => process.exit(0))
