/**
 * Entry point: `PORT=8082 DATA_DIR=.data/verification npm start --workspace examples/verification`.
 * `PARTNER_ID` + `API_KEY` register a partner at start-up; `DATABASE_URL=postgres://…` selects PostgreSQL.
 */
import { drainDelayOf, startTelemetry, stopOnSignals } from '@routeless/example-kit'
import { serve } from 'routeless/node'
import { createVerificationService, registerConfiguredPartner } from './app.ts'
import { readConfig } from './config.ts'

// First: routeless traces when an SDK is registered before the app is created (OTEL_* variables, example-kit).
const telemetry = await startTelemetry('verification')
const config = readConfig()
const service = await createVerificationService(config)
await registerConfiguredPartner(service.services)
await service.worker.start()
const server = await serve(service.app, { host: config.host, port: config.port, drainDelay: drainDelayOf(process.env) })
console.log(
  `verification: listening on ${server.url} (${config.databaseUrl ? 'PostgreSQL' : `SQLite in ${config.dataDir}`})`,
)

stopOnSignals(
  server,
  async () => {
    await service.close()
    await telemetry.shutdown()
  },
  (line) => console.log(`verification: ${line}`),
)
