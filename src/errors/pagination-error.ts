import { MarketCandlesError } from './market-candles-error.js'

/** A page broke the paging rules (no progress, out of order): the walk stops instead of looping. */
export class PaginationError extends MarketCandlesError {
  override name = 'PaginationError'
}
