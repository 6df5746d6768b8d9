/**
 * Serving imports its modules one after another: the config (and with it the package), the server, the controllers,
 * the loader of the compiled handlers, the documents' generators. `preloadServing` asks for the ones that do not
 * depend on the project all at once as the CLI starts to serve, so that node reads their files while the config
 * loads instead of each in its turn (the process answers its first request sooner; the work is the same). An
 * `import()` gives the module's one instance: the later imports find it loaded. A failure is left to the import that
 * needs the module, which reports it.
 * @module
 */
import type { ServerName } from './config-options.ts'

const ADAPTERS: Record<ServerName, () => Promise<unknown>> = {
  node: () => import('../runtime/server/node/index.ts'),
  uws: () => import('../runtime/server/uws/index.ts'),
  bun: () => import('../runtime/server/bun/index.ts'),
}

/** Starts loading the modules serving on `server` will import. */
export function preloadServing(server: ServerName): void {
  const ignore = () => {}
  ADAPTERS[server]().catch(ignore)
  import('../runtime/handlers/app-file.ts').catch(ignore)
  import('../runtime/documents/openapi.ts').catch(ignore)
  import('../runtime/documents/asyncapi.ts').catch(ignore)
}
