// GET /guarded/accounts/42/orders?limit=3 → guarded.mjs Accounts.GET_$_orders('42', { limit: '3' }): workload (d)
// with its guard and without types (bench/instructions.mjs --workloads=guarded: what the guard costs alone).
import { bearerAuth } from 'routeless'
import { accountOrders, BENCH_TOKEN } from '../servers/_workloads.mjs'

export const auth = bearerAuth({ verify: (token) => (token === BENCH_TOKEN ? { id: 'bench' } : undefined) })

export class Accounts {
  GET_$_orders(id, kwargs) {
    return accountOrders(Number(id), Number(kwargs.limit ?? 10))
  }
}
