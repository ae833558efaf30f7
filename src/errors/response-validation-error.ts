import { MarketCandlesError } from './market-candles-error.js'

/**
 * A 200 whose body does not match the endpoint's schema. Kept apart from transport errors: the
 * request succeeded; the service said something this version of the package cannot read.
 * Switch validation off with `validate: false` to receive such bodies unchecked.
 */
export class ResponseValidationError extends MarketCandlesError {
  override name = 'ResponseValidationError'
  readonly method: string
  readonly url: string
  /** Each problem, with its path in the body: `[3].close: expected number, got string`. */
  readonly problems: string[]

  constructor(request: { method: string; url: string }, problems: string[]) {
    super(`Response of ${request.method} ${request.url} does not match its schema: ${problems.slice(0, 3).join('; ')}${problems.length > 3 ? `; and ${problems.length - 3} more` : ''}`)
    this.method = request.method
    this.url = request.url
    this.problems = problems
  }
}
