// GET /typed/accounts/42/orders?limit=3 → typed.mjs Accounts.GET_$_orders(42, { limit: 3 }): workload (d) typed and
// without its guard (bench/instructions.mjs --workloads=typed: what the types cost alone).
import { accountOrders } from '../servers/_workloads.mjs'

/** @typedef {{ id: number, total: number, status: 'open' | 'paid' | 'shipped' }} Order */

export class Accounts {
  /**
   * @param {number} id
   * @param {{ limit?: number }} kwargs
   * @returns {{ account: number, limit: number, orders: Order[] }}
   */
  GET_$_orders(id, { limit = 10 }) {
    return accountOrders(id, limit)
  }
}
