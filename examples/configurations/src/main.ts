/**
 * The server: `PORT=8080 DATA_DIR=.data npm start --workspace examples/configurations`.
 * Reads the settings, opens (and migrates) the database, saves the USERS / USERS_FILE users, serves until SIGINT/SIGTERM.
 */
import { drainDelayOf, startTelemetry, stopOnSignals } from '@routeless/example-kit'
import { serve } from 'routeless/node'
import { createConfigurationsApp } from './app.ts'
import { openServices } from './services.ts'
import { readSettings } from './settings.ts'

async function main(): Promise<void> {
  // First: routeless traces when an SDK is registered before the app is created (OTEL_* variables, example-kit).
  const telemetry = await startTelemetry('configurations')
  const settings = readSettings()
  const { services, dialect, close } = await openServices(settings)
  for (const { username, password } of settings.users) {
    console.log(`configurations: user ${username} ${await services.users.save(username, password)}`)
  }
  const app = await createConfigurationsApp(services)
  const server = await serve(app, { host: settings.host, port: settings.port, drainDelay: drainDelayOf(process.env) })
  const where =
    dialect === 'postgres' ? `PostgreSQL at ${new URL(settings.databaseUrl!).host}` : `SQLite in ${settings.dataDir}`
  console.log(`configurations: listening on ${server.url} (${where})`)
  stopOnSignals(
    server,
    async () => {
      await close()
      await telemetry.shutdown()
    },
    (line) => console.log(`configurations: ${line}`),
  )
}

main().catch((error: Error) => {
  console.error(`configurations: ${error.message}`)
  process.exit(1)
})
