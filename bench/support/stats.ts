/** Small statistics and formatting helpers for the benchmark. */

/** The median of `xs` (mean of the two middle values for an even count). */
export function median(xs: readonly number[]): number {
  if (xs.length === 0) return Number.NaN
  const sorted = [...xs].sort((a, b) => a - b)
  const mid = sorted.length >> 1
  return sorted.length % 2 === 1 ? sorted[mid]! : (sorted[mid - 1]! + sorted[mid]!) / 2
}

/** The `p`-quantile (0..1) of `xs`, nearest rank. */
export function quantile(xs: readonly number[], p: number): number {
  if (xs.length === 0) return Number.NaN
  const sorted = [...xs].sort((a, b) => a - b)
  return sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil(p * sorted.length) - 1))]!
}

/** Fixed-point formatting. */
export const fmt = (x: number, digits = 3): string => x.toFixed(digits)

/** `PASS` or `FAIL`. */
export const verdict = (ok: boolean): string => (ok ? 'PASS' : 'FAIL')

/** Lowest and highest of `xs`: the run-to-run spread of a figure measured several times. */
export function spread(xs: readonly number[]): { low: number; high: number } {
  return xs.length === 0 ? { low: Number.NaN, high: Number.NaN } : { low: Math.min(...xs), high: Math.max(...xs) }
}

/** `1.234 (1.100–1.300)`: a median and its spread. */
export const withSpread = (xs: readonly number[], digits = 2, unit = ''): string => {
  const { low, high } = spread(xs)
  return `${fmt(median(xs), digits)}${unit} (${fmt(low, digits)}–${fmt(high, digits)})`
}
