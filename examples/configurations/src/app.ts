/** The routeless application: the controllers in ../controllers, with the services as `this.context`. */
import { fileURLToPath } from 'node:url'
import { type Application, createApp } from 'routeless'
import type { Services } from './services.ts'

const CONTROLLERS = fileURLToPath(new URL('../controllers', import.meta.url))

export function createConfigurationsApp(services: Services): Promise<Application> {
  return createApp(CONTROLLERS, { context: services })
}
