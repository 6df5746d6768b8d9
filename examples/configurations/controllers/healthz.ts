// GET /healthz → healthz.ts Default.GET()
import { Controller } from 'routeless'

/** Liveness: this process answers. No dependency is probed (restarting the process would not bring one back). */
export class Default extends Controller {
  GET(): { status: 'alive' } {
    return { status: 'alive' }
  }
}
