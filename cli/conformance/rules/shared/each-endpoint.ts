import type { CandleEndpointName } from '../../../../src/contract/index.js'
import { Skip, type RuleContext } from '../../rule.js'

/** The two candle endpoints, in the order the rules check them. */
export const CANDLE_ENDPOINTS: readonly CandleEndpointName[] = ['exchange_ohlcv', 'aggregated_ohlcv']

/**
 * Runs `check` on both candle endpoints. One the key cannot reach is left out; the rule is skipped
 * only when neither could be checked.
 */
export async function eachEndpoint(ctx: RuleContext, check: (endpoint: CandleEndpointName) => Promise<void>): Promise<void> {
  const skipped: string[] = []
  for (const endpoint of CANDLE_ENDPOINTS) {
    try {
      await check(endpoint)
    } catch (error) {
      if (!(error instanceof Skip)) throw error
      skipped.push(`${endpoint}: ${error.message}`)
    }
  }
  if (skipped.length === CANDLE_ENDPOINTS.length) ctx.skip(skipped.join('; '))
}
