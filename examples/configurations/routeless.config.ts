/**
 * `npx routeless` in this folder serves the API as `npm start` does (the same settings: PORT, HOST, DATA_DIR,
 * DATABASE_URL, USERS …), and adds what the CLI brings: `--workers`, `--watch`, `--server`. Flags win over `host`.
 */
import { drainDelayOf } from '@routeless/example-kit'
import { defineConfig } from 'routeless'
import { configurationsOpenApi } from './src/openapi.ts'
import { openServices, type Services } from './src/services.ts'
import { readSettings } from './src/settings.ts'

const settings = readSettings()
let closeDatabase: (() => Promise<void>) | undefined

export default defineConfig<Services>({
  prefix: 'controllers',
  docs: { openapi: '/openapi.json' }, // the API reference page at /docs
  drainDelay: drainDelayOf(process.env), // on SIGTERM: /readyz answers 503 this long before the port closes
  host: `${settings.host.includes(':') ? `[${settings.host}]` : settings.host}:${settings.port}`,
  async context() {
    const { services, close } = await openServices(settings)
    closeDatabase = close
    for (const { username, password } of settings.users) await services.users.save(username, password)
    return services
  },
  ready(app) {
    const openapi = configurationsOpenApi(app)
    ;(app.options.context as Services).openapi = () => openapi
  },
  close: () => closeDatabase?.(),
})
