import type { FollowSeriesState, FollowState, FollowStatus } from './follow-types.js'
import { firstAsk, unlearnt, type PublishDelay } from './publish-delay.js'
import type { SeriesPosition } from './series-position.js'

/** What the follow of one series is doing, kept across iterations of the follow. */
export interface SeriesStatus {
  readonly position: SeriesPosition
  status: FollowStatus
  since: number
  /** The first failure of the current outage (service time); undefined when there is none. */
  outageSince: number | undefined
  attempts: number
  lastError: Error | undefined
  /** What the series has learnt of its publish delay. */
  delay: PublishDelay
}

/**
 * The state of a follow: one status per series and the follow's own, derived from per-status
 * counts so a change costs O(1) for any number of series; told to `notify` when it changes.
 */
export class StateBoard {
  readonly series: SeriesStatus[]
  readonly #counts: Record<FollowStatus, number> = { 'catching-up': 0, live: 0, retrying: 0, ended: 0 }
  #status: FollowStatus = 'catching-up'
  #since: number
  #attempts = 0
  #lastError: Error | undefined
  #over = false
  readonly #notify: ((state: FollowState) => void) | undefined
  readonly #settleMs: number | undefined

  constructor(positions: readonly SeriesPosition[], now: number, settleMs: number | undefined, notify?: (state: FollowState) => void) {
    this.#since = now
    this.#settleMs = settleMs
    this.#notify = notify
    this.series = positions.map((position) => {
      const status = position.ended ? 'ended' : 'catching-up'
      this.#counts[status]++
      return { position, status, since: now, outageSince: undefined, attempts: 0, lastError: undefined, delay: unlearnt() }
    })
  }

  /** The offset after a close at which a series asks for its candle: fixed, or learnt. */
  settleOf(s: SeriesStatus): number {
    return this.#settleMs ?? firstAsk(s.delay)
  }

  /** Moves a series to `status`; an answer that came through ends its outage. */
  set(s: SeriesStatus, status: FollowStatus, now: number): void {
    if (status !== 'retrying') {
      s.outageSince = undefined
      s.attempts = 0
      s.lastError = undefined
    }
    this.#move(s, status, now)
    this.#update(now, false)
  }

  #move(s: SeriesStatus, status: FollowStatus, now: number): void {
    if (s.status === status) return
    this.#counts[s.status]--
    this.#counts[status]++
    s.status = status
    s.since = now
  }

  /** A series' try failed with an outage error. */
  fail(s: SeriesStatus, error: Error, now: number): void {
    s.outageSince ??= now
    s.attempts++
    s.lastError = error
    this.#lastError = error
    this.#move(s, 'retrying', now)
    this.#update(now, true)
  }

  /** True once iteration is over (until it begins again). */
  get over(): boolean {
    return this.#over
  }

  /** Iteration begins (again): every series still followed catches up first. */
  begin(now: number): void {
    this.#over = false
    for (const s of this.series) if (s.status !== 'ended') this.set(s, 'catching-up', now)
    this.#update(now, false)
  }

  /** Iteration is over: every series ended, an error (kept as `lastError`), an abort or a break. */
  end(now: number, error?: Error): void {
    this.#over = true
    this.#lastError = error
    this.#update(now, false)
  }

  #update(now: number, failed: boolean): void {
    const c = this.#counts
    const status: FollowStatus = this.#over ? 'ended' : c.retrying > 0 ? 'retrying' : c['catching-up'] > 0 ? 'catching-up' : c.live > 0 ? 'live' : 'ended'
    const changed = status !== this.#status
    if (changed) {
      this.#status = status
      this.#since = now
      if (status === 'retrying') this.#attempts = 0
      else if (status !== 'ended') this.#lastError = undefined
    }
    if (failed) this.#attempts++
    if (changed || failed) this.#notify?.(this.state(now))
  }

  /** The follow's state at `now`. */
  state(now: number): FollowState {
    let lagMs: number | undefined
    for (const s of this.series) {
      const delivered = s.position.deliveredMs
      if (s.status !== 'ended' && delivered !== undefined) lagMs = Math.max(lagMs ?? -Infinity, now - delivered)
    }
    return this.#with({ status: this.#status, since: this.#since, lagMs }, now, this.#status === 'retrying' ? this.#since : undefined, this.#attempts, this.#lastError)
  }

  /** One series' state at `now`. */
  seriesState(s: SeriesStatus, now: number): FollowSeriesState {
    const { position } = s
    const delivered = position.deliveredMs
    const base = { series: position.id, status: s.status, since: s.since, lagMs: delivered === undefined ? undefined : now - delivered, settleMs: Math.round(this.settleOf(s)) }
    const state = this.#with(base, now, s.outageSince, s.attempts, s.lastError)
    return position.ended ? { ...state, ended: position.ended } : state
  }

  #with<T extends FollowState>(state: T, now: number, outageSince: number | undefined, attempts: number, lastError: Error | undefined): T {
    if (state.status === 'retrying') Object.assign(state, { outageMs: now - outageSince!, attempts })
    if (lastError && (state.status === 'retrying' || state.status === 'ended')) state.lastError = lastError
    return state
  }
}
