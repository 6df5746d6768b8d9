/**
 * Entry point: `PORT=8082 DATA_DIR=.data/verification npm start --workspace examples/verification`.
 * `PARTNER_ID` + `API_KEY` register a partner at start-up; `DATABASE_URL=postgres://…` selects PostgreSQL.
 */
import { startTelemetry } from '@routeless/example-kit'
import { serve } from 'routeless/node'
import { createVerificationService, registerConfiguredPartner } from './app.ts'
import { readConfig } from './config.ts'

// First: routeless traces when an SDK is registered before the app is created (OTEL_* variables, example-kit).
const telemetry = await startTelemetry('verification')
const config = readConfig()
const service = await createVerificationService(config)
await registerConfiguredPartner(service.services)
await service.worker.start()
const server = await serve(service.app, { host: config.host, port: config.port })
console.log(
  `verification: listening on ${server.url} (${config.databaseUrl ? 'PostgreSQL' : `SQLite in ${config.dataDir}`})`,
)

let stopping = false
async function stop(signal: string) {
  if (stopping) return
  stopping = true
  console.log(`verification: ${signal}, draining`)
  await server.close()
  await service.close()
  await telemetry.shutdown()
  process.exit(0)
}
process.on('SIGINT', () => void stop('SIGINT'))
process.on('SIGTERM', () => void stop('SIGTERM'))
