import { INTERVAL_MS, isKnownInterval } from '../../../src/schemas/values/known-values.js'
import { bucketGrid } from '../../../src/analysis/bucket-grid.js'
import { UsageError } from '../../usage-error.js'

/** `--resample I`: a target interval that is a whole multiple of `--interval`; undefined without it. */
export function parseResample(target: string | undefined, interval: string): string | undefined {
  if (target === undefined) return undefined
  let grid
  try {
    grid = bucketGrid(target)
  } catch (error) {
    throw new UsageError(`--resample: ${(error as Error).message}`)
  }
  const step = isKnownInterval(interval) ? INTERVAL_MS[interval] : undefined
  if (step === undefined) throw new UsageError(`--resample needs --interval 1m, 1h or 1d, got '${interval}'`)
  if (!grid.divides(step)) throw new UsageError(`--resample ${target} is not a whole multiple of --interval ${interval}`)
  return target === interval ? undefined : target
}
