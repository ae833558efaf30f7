import type { ValidationIssue } from '../schemas/index.js'
import { MarketCandlesError } from './market-candles-error.js'

/**
 * The parameters break a rule the service would answer 422 for; nothing was sent. `issues` are
 * exactly what the service's 422 would list (docs/contract.md#error-bodies).
 */
export class InvalidParamsError extends MarketCandlesError {
  override name = 'InvalidParamsError'
  readonly issues: ValidationIssue[]
  readonly endpoint: string

  constructor(endpoint: string, issues: ValidationIssue[]) {
    super(`Invalid parameters for ${endpoint}: ${issues.map((i) => `${i.loc.at(-1)}: ${i.msg}`).join('; ')}`)
    this.endpoint = endpoint
    this.issues = issues
  }
}
