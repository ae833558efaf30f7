/** What progress reporters know of one series. */
export class SeriesProgress {
  candles = 0
  pages = 0
  done = false
  readonly startedAt = performance.now()

  constructor(
    readonly label: string,
    /** Candles expected from the catalog's coverage; undefined when the interval is unknown. */
    public expected: number | undefined,
  ) {}

  /** Seconds left at this series' own candle rate so far; undefined before there is a rate. */
  etaSeconds(now = performance.now()): number | undefined {
    if (this.expected === undefined || this.candles === 0) return undefined
    const rate = this.candles / Math.max(now - this.startedAt, 1)
    return Math.max(0, this.expected - this.candles) / rate / 1000
  }
}

/** `1h02m`, `3m05s`, `12s`. */
export function formatDuration(seconds: number | undefined): string {
  if (seconds === undefined || !Number.isFinite(seconds)) return '?'
  const s = Math.round(seconds)
  if (s < 60) return `${s}s`
  if (s < 3600) return `${Math.floor(s / 60)}m${String(s % 60).padStart(2, '0')}s`
  return `${Math.floor(s / 3600)}h${String(Math.floor((s % 3600) / 60)).padStart(2, '0')}m`
}
