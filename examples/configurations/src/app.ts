/** The routeless application: the controllers in ../controllers, with the services as `this.context`. */
import { fileURLToPath } from 'node:url'
import { type Application, createApp } from 'routeless'
import { configurationsOpenApi } from './openapi.ts'
import type { Services } from './services.ts'

const CONTROLLERS = fileURLToPath(new URL('../controllers', import.meta.url))

export async function createConfigurationsApp(services: Services): Promise<Application> {
  // The API reference page at /docs shows the document GET /openapi.json serves; /metrics the request durations.
  const app = await createApp(CONTROLLERS, { context: services, docs: { openapi: '/openapi.json' }, metrics: true })
  const openapi = configurationsOpenApi(app)
  services.openapi = () => openapi
  return app
}
