/**
 * Every lifecycle part (`handlers.ts`'s `LifecycleParts`): what a host with a filesystem gives each application
 * (`core-services.ts`), so that any handler's code finds what it calls. A Worker's entry passes only those its
 * handlers use (`runtime/app/worker-app.ts`).
 * @module
 */
import { statusSerializers } from '../contract/responses.ts'
import { nest } from '../contract/typed-binder.ts'
import { isAsyncIterable, lastEventId, streamReply } from '../lifecycle/event-stream.ts'
import { readBody } from '../lifecycle/body.ts'
import { streamParts } from '../lifecycle/stream-parts.ts'
import type { LifecycleParts } from './handlers.ts'

export const ALL_LIFECYCLE_PARTS: LifecycleParts = {
  statusSerializers,
  streamParts,
  runtime: { readBody, nest, streamReply, isAsyncIterable, lastEventId },
}
