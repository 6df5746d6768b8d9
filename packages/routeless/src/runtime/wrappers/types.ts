/**
 * The shape of the core as wrappers see it.
 * @module
 */
import type { IncomingRequest } from '../lifecycle/request.ts'
import type { Answer } from '../lifecycle/response.ts'

/** The core as adapters call it: a request in, its answer out (synchronously when nothing had to wait). */
export type Handle = (incoming: IncomingRequest, env: Record<string, unknown>) => Answer | Promise<Answer>

/** A Fetch handler (`app.fetch`'s shape): the `Response` itself when nothing had to wait, else a promise of it. */
export type Fetch = (request: Request, env?: Record<string, unknown>) => Response | Promise<Response>

/** Something that runs around the lifecycle. */
export type Wrapper = (next: Handle) => Handle
