const DURATION = /^P(?:(\d+)W)?(?:(\d+)D)?(?:T(?:(\d+)H)?(?:(\d+)M)?(?:(\d+)S)?)?$/

/**
 * Parses the fixed-length subset of ISO 8601 durations (weeks, days, hours, minutes, seconds) into
 * milliseconds. Years and months are refused: their length depends on the calendar.
 * Returns `undefined` for anything else.
 */
export function parseDuration(text: string): number | undefined {
  const m = DURATION.exec(text)
  if (!m || text === 'P' || text.endsWith('T')) return undefined
  const [, w = '0', d = '0', h = '0', mi = '0', s = '0'] = m
  return ((((Number(w) * 7 + Number(d)) * 24 + Number(h)) * 60 + Number(mi)) * 60 + Number(s)) * 1000
}

/** A duration in words, for error details: `P30D` -> `30 days`. */
export function describeDuration(ms: number): string {
  const units: Array<[number, string]> = [
    [86_400_000, 'day'],
    [3_600_000, 'hour'],
    [60_000, 'minute'],
    [1000, 'second'],
  ]
  for (const [size, name] of units) {
    if (ms % size === 0) {
      const n = ms / size
      return `${n} ${name}${n === 1 ? '' : 's'}`
    }
  }
  return `${ms} ms`
}
