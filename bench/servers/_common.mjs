// What every benchmark server shares: the port from argv, the three workloads' answers, the ready line.
export const port = Number(process.argv[2] ?? process.env.PORT ?? 3000)
export const host = '127.0.0.1'
export const JSON_TYPE = 'application/json; charset=utf-8'
/** (a) GET /hello */
export const HELLO = JSON.stringify('Hello, World!')
/** (b) GET /users/:user/posts/:post?x=1 */
export const echoParams = (user, post, x) => ({ user, post, x })

/** The harness waits for this line before loading the server. */
export function ready(actualPort = port) {
  process.stdout.write(`ready ${actualPort}\n`)
}

// Exit normally on a signal, so that `node --cpu-prof` writes its profile.
for (const name of ['SIGINT', 'SIGTERM']) process.on(name, () => process.exit(0))
