// The buyer's funds API (/api/buyer/funds, backend/servicematch/buyer/router_funds.py), for the
// shared funds cards (shell/funds-*.tsx).
import type { FundsApi } from '../../shell/funds-types'
import { request } from '../api'

export const FUNDS: FundsApi = { request, base: '/funds' }
