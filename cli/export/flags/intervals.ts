/**
 * Lengths of the intervals this command knows, for the expected candle count of a series. An
 * interval newer than this table still exports; its progress just has no total.
 */
const INTERVAL_LENGTH_MS: Record<string, number> = { '1m': 60_000, '1h': 3_600_000, '1d': 86_400_000 }

export function intervalMs(interval: string): number | undefined {
  return Object.hasOwn(INTERVAL_LENGTH_MS, interval) ? INTERVAL_LENGTH_MS[interval] : undefined
}
