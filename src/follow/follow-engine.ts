import { APIUserAbortError } from '../errors/index.js'
import { abortError, sleep } from '../internal/abort.js'
import { nextCursor, type CandlePage } from '../pagination/page-cursor.js'
import { PageWalk } from '../pagination/walks.js'
import type { FollowEnd, FollowOptions, FollowPage } from './follow-types.js'
import type { FollowSource } from './follow-source.js'
import type { SeriesStatus, StateBoard } from './follow-state.js'
import { isOutage, outageDelayMs } from './outage-backoff.js'
import { learn, retryAsk } from './publish-delay.js'
import { afterCandles, afterEmpty, afterMiss, backoffMs, nextCloseNotDue, type Schedule } from './schedule.js'
import type { SeriesPosition } from './series-position.js'
import { ServiceTimeWaiter } from './service-clock.js'

/** Requests in flight when the follow's options give no `concurrency`. */
export const DEFAULT_FOLLOW_CONCURRENCY = 8

type Candle = { close_ts: string }

/** What one request brought back; errors travel as values, so one failure never goes unhandled. */
type Outcome<C> =
  | { kind: 'history'; page: CandlePage<C> | undefined }
  | { kind: 'live'; candles: C[]; full: boolean; sent: number; received: number; shift: number; moved: boolean; served: number | undefined }
  | { kind: 'exchanges'; closing: Map<string, number | null> }
  | { kind: 'probe'; failed: unknown }
  | { kind: 'error'; error: unknown }

interface Settled<C> {
  key: object
  state: Running<C> | undefined
  outcome: Outcome<C>
}

interface Running<C> {
  readonly position: SeriesPosition
  readonly status: SeriesStatus
  /** The newest close_ts fetched (epoch ms); requests start right after it. */
  fetched: number | undefined
  schedule: Schedule | undefined
  /** The history is still to catch up (from `start`, or from `fetched` after a failed page). */
  catchUp: boolean
  history: AsyncIterator<CandlePage<C>> | undefined
  busy: boolean
  /** During an outage, when to try again (service time). */
  retryDue: number | undefined
  /** The last poll that did not find the expected candle: that close, and the poll's offset after it (on the reading as corrected by `missedShift`). */
  missedFor: number | undefined
  missed: number
  missedShift: number
}

/** The service's time as a follow knows it, and what it learns it from. */
export interface FollowTime {
  now(): number
  /** Service ms per wall ms, when known (an estimate from `Date` headers knows the speed it assumes). */
  rate?(): number
  /** Learns from an answer's `Date` header, sent and received at local times (`Date.now()`). */
  observe(date: string | null, sent: number, received: number): void
  /** How far the reading has been corrected so far (service ms; offsets measured on it move with it). */
  shift?(): number
  /** How many times the reading started again (the service's clock was moved): offsets across one mean nothing. */
  restarts?(): number
  /** Local ms (`Date.now()`) when a clock probe should go out, if one is wanted; `probing()` as it goes. */
  probeAt?(): number | undefined
  probing?(): void
}

/** Local ms before another clock probe after one failed (a deployment whose exchange list is down). */
const PROBE_RETRY_MS = 5000

/**
 * The follow of one or more series, page by page: catches each series up from its `start` (the
 * walks), then asks for each next candle just after it is due on the service's clock, at most
 * `concurrency` requests at once, every one through the client's limiter. Yields pages as they
 * arrive, ascending per series; a series whose exchange has closed, or whose `end` is reached, ends
 * with a last page saying why. Leaving the generator aborts whatever is in flight.
 */
export async function* followPages<C extends Candle>(
  source: FollowSource<C>,
  board: StateBoard,
  time: FollowTime,
  options: FollowOptions,
): AsyncGenerator<FollowPage<C>, undefined> {
  const fixedSettle = options.settleMs
  const maxOutageMs = options.maxOutageMs ?? Infinity
  const concurrency = options.concurrency ?? DEFAULT_FOLLOW_CONCURRENCY
  const stop = new AbortController()
  const onAbort = () => stop.abort(options.signal?.reason)
  if (options.signal?.aborted) throw abortError(options.signal)
  options.signal?.addEventListener('abort', onAbort, { once: true })
  const signal = stop.signal
  const waiter = new ServiceTimeWaiter(() => time.now(), time.rate && (() => time.rate!()))
  const observe = (date: string | null, sent: number, received: number) => time.observe(date, sent, received)
  const states: Running<C>[] = board.series
    .filter((s) => !s.position.ended)
    .map((status) => ({
      position: status.position,
      status,
      fetched: status.position.deliveredMs,
      schedule: undefined,
      catchUp: status.position.startQuery !== undefined,
      history: undefined,
      busy: false,
      retryDue: undefined,
      missedFor: undefined,
      missed: 0,
      missedShift: 0,
    }))
  const shiftOf = () => time.shift?.() ?? 0
  const settleOf = (state: Running<C>) => board.settleOf(state.status)
  // A first ask goes out at the settle as it is when it falls due: it shrinks as probes narrow the
  // follow's reading of the service's clock (right after the first answer, that reading spans a second).
  const dueOf = (state: Running<C>) => {
    const schedule = state.schedule
    if (state.retryDue !== undefined) return state.retryDue
    if (!schedule) return -Infinity
    return schedule.attempts === 0 ? Math.min(schedule.due, schedule.expected + settleOf(state)) : schedule.due
  }
  const inFlight = new Map<object, Promise<Settled<C>>>()
  const launch = <T>(state: Running<C> | undefined, work: Promise<T>, wrap: (value: T) => Outcome<C>): void => {
    const key = {}
    inFlight.set(key, work.then((value) => ({ key, state, outcome: wrap(value) }), (error: unknown) => ({ key, state, outcome: { kind: 'error', error } })))
  }

  // Closing dates of exchanges (epoch ms of the closing day; null while open): read before the first
  // poll of an exchange series, and again when a candle is given up on (it may have closed since).
  const needsExchanges = states.some((s) => s.position.exchange !== undefined)
  // Clock probes (a Date header at a chosen moment), one at a time; after a failed one, a pause.
  let probeBusy = false
  let probeAfter = -Infinity
  let closing: Map<string, number | null> | undefined
  let exchangesWanted = needsExchanges
  let exchangesBusy = false
  let exchangesDue = -Infinity
  let exchangesFailed = 0

  const endOf = (position: SeriesPosition, expected: number): FollowEnd | undefined => {
    if (position.endMs !== undefined && expected > position.endMs) {
      return position.endReached()
    }
    const closedAt = position.exchange === undefined ? undefined : closing?.get(position.exchange)
    if (closedAt != null && expected > closedAt) {
      const day = new Date(closedAt).toISOString().slice(0, 10)
      return { series: position.id, reason: 'exchange-closed', message: `Exchange '${position.exchange}' closed on ${day}: no candle of ${position.label} follows its last one` }
    }
    return undefined
  }

  const poll = (state: Running<C>): void => {
    state.busy = true
    if (state.catchUp) {
      // The catch-up walk from `start`, or again from the last candle fetched after a failed page.
      state.history ??= new PageWalk(source.walk(state.position.endpoint, observe), state.position.historyCursor(state.fetched), { signal, concurrency })[Symbol.asyncIterator]()
      return launch(state, state.history.next(), (r) => ({ kind: 'history', page: r.done ? undefined : r.value }))
    }
    const cursor = state.position.liveCursor(state.fetched, state.schedule?.expected)
    const forward = cursor.query.start !== undefined
    const sent = time.now()
    const sentShift = shiftOf()
    const sentRestarts = time.restarts?.() ?? 0
    launch(state, source.fetchLive(cursor.endpoint, cursor.query, signal), (answer) => {
      time.observe(answer.date, answer.sent, answer.received)
      // The clock was moved while the request was out: its send time is on another reading.
      const moved = (time.restarts?.() ?? 0) !== sentRestarts
      // Checked like every walk's page: ascending, inside the window, no more than `limit`.
      const full = nextCursor(cursor, answer.candles) !== null && forward
      // Both times on the reading as this answer corrected it.
      const shift = shiftOf()
      const sentAt = sent + shift - sentShift
      // When the service answered, on its own clock: its Date header where the follow reads the clock
      // from them (a reading can be far off right after the clock was moved), else the send time.
      const dated = time.restarts && answer.date !== null ? Date.parse(answer.date) : Number.NaN
      const served = Number.isFinite(dated) ? dated : moved ? undefined : sentAt
      return { kind: 'live', candles: answer.candles, full, sent: sentAt, received: time.now(), shift, moved, served }
    })
  }

  try {
    board.begin(time.now())
    let active = states.slice()
    while (active.length > 0) {
      if (exchangesWanted && !exchangesBusy && waiter.remaining(exchangesDue) <= 0) {
        exchangesWanted = false
        exchangesBusy = true
        launch(undefined, source.exchanges(signal), (list) => ({
          kind: 'exchanges',
          closing: new Map(list.map((e) => [e.name, e.closing_date == null ? null : Date.parse(`${e.closing_date}T00:00:00Z`)])),
        }))
      }
      let wallDue = Infinity
      const probeAt = probeBusy ? undefined : time.probeAt?.()
      if (probeAt !== undefined) {
        const at = Math.max(probeAt, probeAfter)
        if (at <= Date.now()) {
          probeBusy = true
          time.probing?.()
          const probe = source.probe(signal).then((answer) => time.observe(answer.date, answer.sent, answer.received), (error: unknown) => error ?? new Error('clock probe failed'))
          launch(undefined, probe, (failed) => ({ kind: 'probe', failed }))
        } else wallDue = at
      }
      let nextDue = exchangesWanted && !exchangesBusy && exchangesDue > -Infinity ? exchangesDue : Infinity
      if (closing !== undefined || !needsExchanges) {
        let busy = 0
        for (const state of active) if (state.busy) busy++
        // Earliest due first, so series falling due together are served in turn.
        for (const state of active.filter((s) => !s.busy).sort((a, b) => dueOf(a) - dueOf(b))) {
          const due = dueOf(state)
          if (due !== -Infinity && waiter.remaining(due) > 0) {
            nextDue = Math.min(nextDue, due)
            break
          }
          if (busy >= concurrency) break
          poll(state)
          busy++
        }
      }
      const done = await nextSettled(inFlight, nextDue, wallDue, waiter, signal)
      if (!done) continue
      inFlight.delete(done.key)
      const { state, outcome } = done
      const now = time.now()
      if (state) state.busy = false
      if (outcome.kind === 'probe') {
        probeBusy = false
        // A clock probe that failed: the polls say whether the service is down; probe again later.
        if (outcome.failed !== undefined) {
          if (signal.aborted) throw abortError(signal)
          probeAfter = Date.now() + PROBE_RETRY_MS
        }
        continue
      }
      if (outcome.kind === 'error') {
        const { error } = outcome
        if (!isOutage(error)) throw error
        if (!state) {
          // The exchange list is down too: go on without closing dates, and ask again later.
          exchangesBusy = false
          exchangesWanted = true
          exchangesDue = now + outageDelayMs(++exchangesFailed)
          closing ??= new Map()
          continue
        }
        const since = state.status.outageSince ?? now
        if (now - since >= maxOutageMs) throw error
        board.set(state.status, 'retrying', now, error as Error)
        state.retryDue = Math.min(now + outageDelayMs(state.status.attempts), since + maxOutageMs)
        // A walk that threw is over: the catch-up starts again from the last candle fetched.
        void state.history?.return?.(undefined)?.catch(() => {})
        state.history = undefined
        continue
      }
      if (outcome.kind === 'exchanges') {
        exchangesBusy = false
        exchangesFailed = 0
        closing = outcome.closing
        continue
      }
      const running = state!
      running.retryDue = undefined
      const { intervalMs } = running.position
      const settleMs = settleOf(running)
      let candles: C[] = []
      let phase: 'history' | 'live' = 'live'
      if (outcome.kind === 'history') {
        if (outcome.page === undefined) {
          // Caught up: the walk ended with a short page at the latest candle.
          running.catchUp = false
          running.history = undefined
          running.schedule = running.fetched === undefined ? firstSchedule(undefined, intervalMs, settleMs, now, running.position.startQuery) : afterCandles(running.fetched, false, intervalMs, settleMs, now)
        } else {
          candles = outcome.page.candles
          phase = 'history'
          if (candles.length > 0) running.fetched = Date.parse(candles.at(-1)!.close_ts)
        }
      } else if (outcome.candles.length > 0) {
        candles = outcome.candles
        const expected = running.schedule?.expected
        // The expected candle found, and as the newest (a later one means this ask came an interval
        // late or more, after an outage or a moved clock: it says nothing of the delay): learn when
        // it became available (not with a fixed settle).
        if (fixedSettle === undefined && expected !== undefined && !outcome.moved && Date.parse(candles.at(-1)!.close_ts) === expected) {
          const missed = running.missedFor === expected ? running.missed + outcome.shift - running.missedShift : undefined
          running.status.delay = learn(board.delayOf(running.status), outcome.received - expected, missed, outcome.received - outcome.sent)
        }
        running.fetched = Date.parse(candles.at(-1)!.close_ts)
        running.schedule = afterCandles(running.fetched, outcome.full, intervalMs, settleOf(running), now)
      } else if (running.schedule === undefined) {
        running.schedule = firstSchedule(running.fetched, intervalMs, settleMs, now)
      } else {
        const before = running.schedule.expected
        if (outcome.moved) {
          // Sent on another reading of the clock: how late it asked is unknown. Ask again as with a fixed settle.
          running.missedFor = undefined
          running.schedule = afterEmpty(running.schedule, intervalMs, settleMs, now)
        } else if (fixedSettle === undefined) {
          // Not there yet: the delay is more than this poll's offset; the next try from what is learnt.
          running.missedFor = before
          running.missed = outcome.sent - before
          running.missedShift = outcome.shift
          running.schedule = afterMiss(running.schedule, intervalMs, settleMs, before + retryAsk(board.delayOf(running.status), running.missed), now)
        } else {
          running.schedule = afterEmpty(running.schedule, intervalMs, settleMs, now)
        }
        // The candle at `end` given up on: there is no later candle for it to come with. The follow
        // ends only once an answer the service gave a whole interval after the candle was due lacks it.
        const lastAskAt = before + intervalMs + settleMs
        const endMs = running.position.endMs
        const { served } = outcome
        if (endMs !== undefined && before <= endMs && running.schedule.expected > endMs && (served === undefined || served < lastAskAt)) {
          const wait = served === undefined ? backoffMs(1, settleMs) : lastAskAt - served
          // Not a first ask (whose due the engine caps at the settle): it waits for `due`.
          running.schedule = { expected: before, attempts: 1, due: now + wait }
        }
        if (running.schedule.expected !== before && running.position.exchange !== undefined) exchangesWanted = true
      }
      board.set(running.status, phase === 'history' || (outcome.kind === 'live' && outcome.full) ? 'catching-up' : 'live', now)
      const ended = running.schedule && !running.history ? endOf(running.position, running.schedule.expected) : undefined
      if (ended) {
        running.position.ended = ended
        board.set(running.status, 'ended', now)
        active = active.filter((s) => s !== running)
      }
      if (candles.length > 0 || ended) {
        const serviceNow = time.now()
        const newest = candles.length > 0 ? Date.parse(candles.at(-1)!.close_ts) : running.position.deliveredMs
        yield { series: running.position.id, candles, phase, serviceNow, lagMs: newest === undefined ? undefined : serviceNow - newest, ...(ended ? { ended } : {}) }
      }
    }
    board.end(time.now())
    return undefined
  } catch (error) {
    board.end(time.now(), error as Error)
    throw error
  } finally {
    if (!board.over) board.end(time.now())
    options.signal?.removeEventListener('abort', onAbort)
    // Leaving early (break, return, an error): nothing is left running.
    if (!signal.aborted) stop.abort(new APIUserAbortError('the follow was stopped'))
    for (const state of states) void state.history?.return?.(undefined)?.catch(() => {})
  }
}

/** The schedule of a series after an answer without candles and none before: wait for the next close. */
function firstSchedule(fetched: number | undefined, intervalMs: number, settleMs: number, now: number, start?: string): Schedule {
  const grid = Math.floor((now - settleMs) / intervalMs) * intervalMs
  let expected = fetched === undefined ? nextCloseNotDue(grid, intervalMs, settleMs, now) : fetched + intervalMs
  // A `start` still ahead of the service's clock: the first candle wanted is the first close at or after it.
  if (fetched === undefined && start !== undefined) expected = Math.max(expected, Math.ceil(Date.parse(start) / intervalMs) * intervalMs)
  return { expected, attempts: 0, due: expected + settleMs }
}

/**
 * The first request to settle, or undefined once `due` (service time) is near or `wallDue` (local
 * ms) has come; rejects when `signal` fires.
 */
async function nextSettled<T>(inFlight: Map<object, Promise<T>>, due: number, wallDue: number, waiter: ServiceTimeWaiter, signal: AbortSignal): Promise<T | undefined> {
  if (signal.aborted) throw abortError(signal)
  const timer = new AbortController()
  const racers: Promise<T | undefined>[] = [...inFlight.values()]
  if (due !== Infinity) racers.push(waiter.nap(due, timer.signal).then(() => undefined))
  if (wallDue !== Infinity) racers.push(sleep(Math.max(1, wallDue - Date.now()), timer.signal).then(() => undefined, () => undefined))
  if (racers.length === 0) throw new Error('market-candles follow: nothing in flight and nothing due')
  let onAbort: (() => void) | undefined
  const aborted = new Promise<never>((_, reject) => {
    onAbort = () => reject(abortError(signal))
    signal.addEventListener('abort', onAbort, { once: true })
  })
  try {
    return await Promise.race([...racers, aborted])
  } finally {
    timer.abort()
    signal.removeEventListener('abort', onAbort!)
  }
}
