import { INTERVAL_MS } from '../../../src/schemas/values/known-values.js'
import { bucketGrid } from '../../../src/analysis/bucket-grid.js'
import { UsageError } from '../../usage-error.js'

/** The intervals the contract's services serve, coarsest first: the source a resample is built from. */
const SERVED = ['1d', '1h', '1m'] as const

/**
 * `--interval I` that the service answered 404 for: a usage mistake (exit 2) that says what to do.
 * An interval resample can build (5m, 15m, 4h, 1w, 1M) names the command that stores it:
 * `--interval 1m --resample 5m`, from the coarsest served interval it is a whole multiple of;
 * anything else names the served intervals.
 */
export function unofferedInterval(interval: string, detail: string): UsageError {
  const refused = `--interval ${interval}: the service does not offer it (404: ${detail})`
  let source: string | undefined
  try {
    const grid = bucketGrid(interval)
    source = SERVED.find((s) => grid.divides(INTERVAL_MS[s]))
  } catch {
    // Not an interval resample knows (1H, 5s, 90): the served ones are the answer.
  }
  return new UsageError(
    source === undefined
      ? `${refused}. It serves 1m, 1h and 1d.`
      : `${refused}; it serves 1m, 1h and 1d. To store ${interval} candles, export ${source} candles and resample them: --interval ${source} --resample ${interval}`,
  )
}
