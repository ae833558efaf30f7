import type { AggregatedCandle, ExchangeCandle } from '../../src/index.js'

/*
 * A plain reference for resample: group every candle by the calendar bucket its close time falls
 * in (written from Date fields, not from resample's arithmetic), then fold each group. Holds the
 * whole series in memory; for tests only.
 */

const SOURCE_MS: Record<string, number> = { '1m': 60_000, '1h': 3_600_000, '1d': 86_400_000 }
const UNIT: Record<string, number> = { m: 60_000, h: 3_600_000, d: 86_400_000 }
const RANK: Record<string, number> = { outlier_excluded: 3, outlier: 2 }

function bucketStart(target: string, t: number): { start: number; end: number } {
  const [, n, unit] = /^(\d+)([mhdwM])$/.exec(target)!
  const count = Number(n)
  // A close time at a boundary belongs to the bucket that ends there: look at the instant before it.
  const inside = new Date(t - 1)
  if (unit === 'M') {
    const month = inside.getUTCFullYear() * 12 + inside.getUTCMonth()
    const first = month - ((((month - 1970 * 12) % count) + count) % count)
    return { start: Date.UTC(Math.floor(first / 12), first % 12, 1), end: Date.UTC(Math.floor((first + count) / 12), (first + count) % 12, 1) }
  }
  if (unit === 'w') {
    if (count !== 1) throw new Error('the reference knows 1w only')
    const midnight = Date.UTC(inside.getUTCFullYear(), inside.getUTCMonth(), inside.getUTCDate())
    const sinceMonday = (inside.getUTCDay() + 6) % 7
    const start = midnight - sinceMonday * 86_400_000
    return { start, end: start + 7 * 86_400_000 }
  }
  const length = count * UNIT[unit!]!
  const start = Math.floor((t - 1) / length) * length
  return { start, end: start + length }
}

export function referenceResample<C extends ExchangeCandle | AggregatedCandle>(candles: readonly C[], target: string, dropPartial = false) {
  const groups = new Map<number, { start: number; items: C[] }>()
  for (const c of candles) {
    const { start, end } = bucketStart(target, Date.parse(c.close_ts))
    const group = groups.get(end) ?? { start, items: [] }
    group.items.push(c)
    groups.set(end, group)
  }
  const out = []
  for (const [end, { start, items }] of groups) {
    const expected = (end - start) / SOURCE_MS[items[0]!.interval]!
    if (dropPartial && items.length < expected) continue
    let flag: string | null = null
    for (const c of items) if ((c.flag === null ? 0 : (RANK[c.flag] ?? 1)) > (flag === null ? 0 : (RANK[flag] ?? 1))) flag = c.flag
    const candle: Record<string, unknown> = {
      ...items[0],
      interval: target,
      close_ts: new Date(end).toISOString().replace('.000Z', 'Z'),
      open: items[0]!.open,
      high: Math.max(...items.map((c) => c.high)),
      low: Math.min(...items.map((c) => c.low)),
      close: items.at(-1)!.close,
      base_volume: items.reduce((sum, c) => sum + c.base_volume, 0),
      quote_volume: items.reduce((sum, c) => sum + c.quote_volume, 0),
      flag,
      source_candles: items.length,
      source_expected: expected,
      complete: items.length === expected,
      final: true,
    }
    if ('exchanges' in items[0]!) candle.exchanges = [...new Set(items.flatMap((c) => (c as AggregatedCandle).exchanges))].sort()
    out.push(candle)
  }
  return out
}
