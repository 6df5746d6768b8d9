// GET /accounts/42/orders?limit=3 → accounts.mjs Default.GET_$_orders(42, { limit: 3 }): the realistic workload (d),
// bearer-guarded (the module's `auth`), its path part and query typed (JSDoc: coerced and checked before the call)
// and its return type compiled into the serializer.
import { bearerAuth } from 'routeless'
import { accountOrders, BENCH_TOKEN } from '../servers/_workloads.mjs'

export const auth = bearerAuth({ verify: (token) => (token === BENCH_TOKEN ? { id: 'bench' } : undefined) })

/** @typedef {{ id: number, total: number, status: 'open' | 'paid' | 'shipped' }} Order */

export class Default {
  /**
   * @param {number} id
   * @param {{ limit?: number }} kwargs
   * @returns {{ account: number, limit: number, orders: Order[] }}
   */
  GET_$_orders(id, { limit = 10 }) {
    return accountOrders(id, limit)
  }
}
