const DAY_MS = 86_400_000

/**
 * Where the buckets of a target interval lie. A bucket holds the candles whose close time is in
 * `(start, end]`; its own close time is `end`, as the service's candles close at their end.
 */
export interface BucketGrid {
  /** The target as given, e.g. `15m`, `4h`, `1w`, `1M`. */
  readonly target: string
  /** The bucket holding close time `t` (epoch ms): its start and end. */
  bucketOf(t: number): { start: number; end: number }
  /** True when every bucket is a whole number of `sourceMs` (and starts on that grid). */
  divides(sourceMs: number): boolean
}

const UNIT_MS = { m: 60_000, h: 3_600_000, d: DAY_MS, w: 7 * DAY_MS } as const
// 1970-01-01 was a Thursday: weeks start on Monday 1970-01-05T00:00Z and every 7 days from it.
const MONDAY_OFFSET_MS = 4 * DAY_MS

function fixedGrid(target: string, length: number, offset: number): BucketGrid {
  return {
    target,
    bucketOf(t) {
      const end = offset + Math.ceil((t - offset) / length) * length
      return { start: end - length, end }
    },
    divides: (sourceMs) => length % sourceMs === 0 && offset % sourceMs === 0,
  }
}

// Months are counted from January 1970, so `3M` is calendar quarters and `12M` calendar years.
function monthGrid(target: string, months: number): BucketGrid {
  return {
    target,
    bucketOf(t) {
      const d = new Date(t - 1) // a close time at midnight on the 1st ends the month before
      const index = (d.getUTCFullYear() - 1970) * 12 + d.getUTCMonth()
      const first = Math.floor(index / months) * months
      return { start: Date.UTC(1970, first, 1), end: Date.UTC(1970, first + months, 1) }
    },
    // Every month is a whole number of days, hours and minutes.
    divides: (sourceMs) => DAY_MS % sourceMs === 0,
  }
}

/**
 * The grid of a target interval: `N` then `m` (minutes), `h` (hours), `d` (days), `w` (weeks from
 * Monday 00:00 UTC) or `M` (calendar months). Minutes, hours and days are aligned to the UTC epoch,
 * so targets that divide a day (`5m`, `15m`, `4h`) start at midnight UTC.
 */
export function bucketGrid(target: string): BucketGrid {
  if (typeof target !== 'string') throw new TypeError(`the target interval must be a string such as '15m', got ${typeof target}`)
  const m = /^([1-9]\d{0,5})([mhdwM])$/.exec(target)
  if (!m) {
    throw new RangeError(`'${target}' is not an interval: write a count and a unit, m (minutes), h (hours), d (days), w (weeks) or M (calendar months), e.g. 15m, 4h, 1w, 1M`)
  }
  const count = Number(m[1])
  const unit = m[2] as 'm' | 'h' | 'd' | 'w' | 'M'
  if (unit === 'M') return monthGrid(target, count)
  return fixedGrid(target, count * UNIT_MS[unit], unit === 'w' ? MONDAY_OFFSET_MS : 0)
}
