// GET /plain/accounts/42/orders?limit=3 → plain.mjs Accounts.GET_$_orders('42', { limit: '3' }): workload (d) with no
// guard and no types (the baseline the guarded, typed handler is compared with).
import { accountOrders } from '../servers/_workloads.mjs'

export class Accounts {
  GET_$_orders(id, kwargs) {
    return accountOrders(Number(id), Number(kwargs.limit ?? 10))
  }
}
