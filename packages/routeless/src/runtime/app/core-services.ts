/**
 * The parts of an application every host with a filesystem gives it (`createApp`, `createAppFromModules`): the CORS
 * and access-log wrappers, the 404's hint, WebSockets through `app.fetch` and every lifecycle part. Services like the
 * others (`services.ts`), so that the `Application` imports none of them and a Worker's bundle carries only those its
 * config asks for, or its tree needs (`runtime/app/worker-app.ts`).
 * @module
 */
import { ALL_LIFECYCLE_PARTS } from '../handlers/lifecycle-parts.ts'
import { hostSockets } from '../lifecycle/host-sockets.ts'
import { notFoundHint } from '../routing/not-found-hint.ts'
import { accessLog } from '../wrappers/access-log.ts'
import { cors, originCheck } from '../wrappers/cors.ts'

export const CORE_SERVICES = {
  accessLog,
  cors: { cors, originCheck },
  notFoundHint,
  sockets: hostSockets,
  lifecycle: ALL_LIFECYCLE_PARTS,
}
