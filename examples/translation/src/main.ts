/** `npm start --workspace examples/translation`: serves the DeepL-compatible API on HOST:PORT (127.0.0.1:8081). */
import { drainDelayOf, startTelemetry, stopOnSignals } from '@routeless/example-kit'
import { serve } from 'routeless/node'
import { createTranslationApp } from './app.ts'
import { readConfig } from './config.ts'
import { startMockProxy } from './mock/proxy.ts'

// First: routeless traces when an SDK is registered before the app is created (OTEL_* variables, example-kit).
const telemetry = await startTelemetry('translation')
const config = readConfig(process.env, process.argv.slice(2))
const app = await createTranslationApp(config)
const server = await serve(app, { host: config.host, port: config.port, drainDelay: drainDelayOf(process.env) })
const storage = config.databaseUrl ? 'PostgreSQL (DATABASE_URL)' : `SQLite in ${config.dataDir}`
console.log(
  `translation: DeepL-compatible API on ${server.url} (engine ${app.services.translation.engineName}, ${storage}${config.testMode ? `, test mode ${config.testMode}` : ''})`,
)

const proxy =
  config.mockProxyPort === undefined
    ? undefined
    : await startMockProxy({ host: config.host, port: config.mockProxyPort, target: server.url })
if (proxy) console.log(`translation: deepl-mock proxy on ${proxy.url}`)

stopOnSignals(
  server,
  async () => {
    await proxy?.close()
    await app.close()
    await telemetry.shutdown()
  },
  (line) => console.log(`translation: ${line}`),
  () => app.drain(), // the speech engines go on through the drain (src/speech/engine-processes.ts)
)
