// GET /healthz → healthz.ts Default.GET()
import { Controller } from 'routeless'

/** Liveness: this process answers. No dependency is probed (restarting the process would not bring one back). */
export class Default extends Controller {
  /** Liveness: 200 while the process serves. */
  GET(): { status: 'alive' } {
    return { status: 'alive' }
  }
}
