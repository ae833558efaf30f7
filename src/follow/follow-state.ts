import type { FollowSeriesState, FollowState, FollowStatus } from './follow-types.js'
import { firstAsk, shifted, unlearnt, type PublishDelay } from './publish-delay.js'
import type { SeriesPosition } from './series-position.js'

/** What the follow of one series is doing, kept across iterations of the follow. */
export interface SeriesStatus {
  readonly position: SeriesPosition
  status: FollowStatus
  since: number
  /** The first failure of the current outage (service time); undefined when there is none. */
  outageSince?: number | undefined
  attempts: number
  lastError?: Error | undefined
  /** What the series has learnt of its publish delay, on the follow's reading of the service's clock... */
  delay: PublishDelay
  /** ...as that reading was corrected when it was learnt (see {@link StateBoard.delayOf}). */
  delayShift: number
}

/** The follow's own status, in the order it wins over the series' ones. */
const WINS: FollowStatus[] = ['retrying', 'catching-up', 'live']

/**
 * The state of a follow: one status per series, and the follow's own derived from them (a pass
 * over the series per change: microseconds for 500); told to `notify` when it changes.
 */
export class StateBoard {
  readonly series: SeriesStatus[]
  /** The follow's own: its status, since when, and its outage (failed tries, last error). */
  readonly #own: SeriesStatus
  over = false

  constructor(
    positions: readonly SeriesPosition[],
    now: number,
    readonly settleMs: number | undefined,
    readonly notify?: (state: FollowState) => void,
    /**
     * How far the follow's reading of the service's clock has been corrected so far (service ms; 0
     * when it is given): what a series learnt before a correction moves with it.
     */
    readonly clockShift: () => number = () => 0,
  ) {
    const status = (position?: SeriesPosition): SeriesStatus => ({ position: position!, status: position?.ended ? 'ended' : 'catching-up', since: now, attempts: 0, delay: unlearnt(), delayShift: 0 })
    this.#own = status()
    this.series = positions.map(status)
  }

  /** The offset after a close at which a series asks for its candle: fixed, or learnt. */
  settleOf(s: SeriesStatus): number {
    return this.settleMs ?? firstAsk(this.delayOf(s))
  }

  /**
   * What a series has learnt of its publish delay, on the follow's reading of the service's clock
   * as it is now. The delay is learnt on that reading (a poll's offsets after the close), so when
   * probes correct the reading, what was learnt moves with it: an estimate that ran 400 ms ahead
   * while the first candles were learnt does not leave the settle 400 ms too long once corrected.
   */
  delayOf(s: SeriesStatus): PublishDelay {
    const shift = this.clockShift()
    if (s.delayShift !== shift) {
      s.delay = shifted(s.delay, shift - s.delayShift)
      s.delayShift = shift
    }
    return s.delay
  }

  /**
   * Moves a series to `status` (none: the follow's own status only is worked out again); `error`,
   * a failed try of an outage. An answer that came through ends the series' outage.
   */
  set(s: SeriesStatus | undefined, status: FollowStatus, now: number, error?: Error): void {
    if (s) move(s, status, now, error)
    const own = this.#own
    const was = own.status
    move(own, this.over ? 'ended' : (WINS.find((w) => this.series.some((x) => x.status === w)) ?? 'ended'), now, error)
    if (own.status !== 'retrying' && own.status !== 'ended') own.lastError = undefined
    if (was !== own.status || error) this.notify?.(this.state(now))
  }

  /** Iteration begins (again): every series still followed catches up first. */
  begin(now: number): void {
    this.over = false
    for (const s of this.series) if (s.status !== 'ended') move(s, 'catching-up', now)
    this.set(undefined, 'live', now)
  }

  /** Iteration is over: every series ended, an error (kept as `lastError`), an abort or a break. */
  end(now: number, error?: Error): void {
    this.over = true
    this.#own.lastError = error
    this.set(undefined, 'ended', now)
  }

  /** The follow's state at `now`: the lag is that of the series furthest behind (one pass). */
  state(now: number): FollowState {
    let lag: number | undefined
    for (const s of this.series) if (s.status !== 'ended' && s.position.delivered) lag = Math.max(lag ?? 0, now - s.position.deliveredMs!)
    return view(this.#own, now, lag)
  }

  /** One series' state at `now`. */
  seriesState(s: SeriesStatus, now: number): FollowSeriesState {
    const { position } = s
    const delivered = position.deliveredMs
    return { series: position.id, settleMs: Math.round(this.settleOf(s)), ...view(s, now, delivered === undefined ? undefined : now - delivered), ...(position.ended && { ended: position.ended }) }
  }
}

function move(s: SeriesStatus, status: FollowStatus, now: number, error?: Error): void {
  if (error) {
    s.outageSince ??= now
    s.attempts++
    s.lastError = error
  } else if (status !== 'retrying' && s.position) {
    s.outageSince = s.lastError = undefined
    s.attempts = 0
  }
  if (s.status !== status) {
    s.status = status
    s.since = now
    if (!s.position && status === 'retrying') {
      s.outageSince = now
      s.attempts = 1
    }
  }
}

function view(s: SeriesStatus, now: number, lagMs: number | undefined): FollowState {
  const { status, since, lastError } = s
  return { status, since, lagMs, ...(status === 'retrying' && { outageMs: now - s.outageSince!, attempts: s.attempts }), ...(lastError && (status === 'retrying' || status === 'ended') && { lastError }) }
}
