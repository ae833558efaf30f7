/*
 * When the follow of one series asks next, in the service's time (epoch ms). Pure functions: the
 * engine feeds them what a request returned and the service's time; tests can drive them directly.
 */

/** What the follow of one series waits for. */
export interface Schedule {
  /** The `close_ts` of the next candle expected. */
  expected: number
  /** Requests already answered without it. */
  attempts: number
  /** When to ask next. */
  due: number
}

/** First wait after an empty answer, and its growth factor: few retries, spread over the interval. */
const BACKOFF = { firstMs: 2000, factor: 4 }

/** The wait before retry number `attempt` (1, 2, ...) of a candle that was not there yet. */
export function backoffMs(attempt: number, settleMs: number): number {
  return Math.max(BACKOFF.firstMs, settleMs) * BACKOFF.factor ** (attempt - 1)
}

/** The first close on the interval's grid after `close` whose request is not due yet at `now`. */
export function nextCloseNotDue(close: number, intervalMs: number, settleMs: number, now: number): number {
  let next = close + intervalMs
  if (next + settleMs <= now) next += Math.ceil((now - settleMs - next + 1) / intervalMs) * intervalMs
  return next
}

/**
 * After an answer with candles, the newest at `newest`: a full page means more are there (ask at
 * once); otherwise the next candle is due at its close plus the settle delay. When that has already
 * passed, it is late: ask again after the first backoff.
 */
export function afterCandles(newest: number, fullPage: boolean, intervalMs: number, settleMs: number, now: number): Schedule {
  const expected = newest + intervalMs
  if (fullPage) return { expected, attempts: 0, due: now }
  const due = expected + settleMs
  return due > now ? { expected, attempts: 0, due } : { expected, attempts: 1, due: now + backoffMs(1, settleMs) }
}

/**
 * After an answer without the expected candle (late data, or an outage): ask again with a growing
 * wait while that stays inside the candle's interval, then give up on it and wait for the next
 * close. Requests keep starting right after the last candle received, so a late candle still comes.
 */
export function afterEmpty(s: Schedule, intervalMs: number, settleMs: number, now: number): Schedule {
  return afterMiss(s, intervalMs, settleMs, now + backoffMs(s.attempts + 1, settleMs), now)
}

/**
 * After an answer without the expected candle, with the next try wanted at `retry` (service time):
 * that try while it stays inside the candle's interval, else the next close.
 */
export function afterMiss(s: Schedule, intervalMs: number, settleMs: number, retry: number, now: number): Schedule {
  if (retry < s.expected + intervalMs + settleMs) return { expected: s.expected, attempts: s.attempts + 1, due: Math.max(retry, now) }
  const expected = nextCloseNotDue(s.expected, intervalMs, settleMs, now)
  return { expected, attempts: 0, due: expected + settleMs }
}
