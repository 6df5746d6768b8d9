// GET /readyz → readyz.ts Default.GET()
import type { ReadinessReport } from '@routeless/example-kit'
import { Controller, type ServiceUnavailable, serviceUnavailable } from 'routeless'
import type { Services } from '../src/services.ts'

/**
 * Readiness: 200 when every dependency answers, 503 naming those that do not, and 503 from SIGTERM on while the
 * server drains (a load balancer stops sending here before the port closes).
 */
export class Default extends Controller<Services> {
  /** Readiness: 200 when every dependency answers; 503 naming those that do not, or while draining. */
  async GET(): Promise<ReadinessReport | ServiceUnavailable<ReadinessReport>> {
    const report = await this.context.readiness.check({ draining: this.env.draining })
    return report.status === 'ready' ? report : serviceUnavailable(report)
  }
}
