import type { MockClock } from './clock.js'
import type { ServiceContext } from './context.js'
import type { MockResponse } from '../message/types.js'

/** The longest publish delay: a day; a feed later than that is an outage, not a delay. */
export const MAX_PUBLISH_DELAY_MS = 86_400_000

/** Throws a clear error unless `ms` is a usable publish delay; 0 when omitted. */
export function checkPublishDelay(ms: unknown): number {
  if (ms === undefined) return 0
  if (typeof ms !== 'number' || !Number.isInteger(ms) || ms < 0 || ms > MAX_PUBLISH_DELAY_MS) {
    throw new RangeError(`publishDelayMs must be an integer from 0 to ${MAX_PUBLISH_DELAY_MS}, got ${String(ms)}`)
  }
  return ms
}

/**
 * The newest `close_ts` a request can see: the clock's now less the publish delay. Candles, pairs
 * coverage and resolution read it, so the catalog and the candle endpoints agree; the plan's
 * horizon is measured from the clock itself.
 */
export const visibleUntil = (ctx: ServiceContext, now: number): number => now - ctx.publishDelayMs

/**
 * The answer with a `Date` header that states the service's clock reading `at` (an IMF-fixdate,
 * whole seconds). An answer that states one already (decided at an earlier reading, or a session's
 * own service's) keeps it.
 */
export function withDate(res: MockResponse, at: number): MockResponse {
  if (res.headers.date !== undefined) return res
  return { ...res, headers: { ...res.headers, date: new Date(at).toUTCString() } }
}

/**
 * The service as one request sees it: its clock read once, so the answer decides what is visible
 * by the same instant its `Date` header states. (Read twice, a running clock could pass a candle's
 * publication between the reads: a `Date` saying the candle is due beside an answer without it.)
 */
export function atReading(ctx: ServiceContext, at: number): ServiceContext {
  const clock = ctx.clock
  const reading: MockClock = {
    now: () => at,
    rate: clock.rate,
    set: (time) => clock.set(time),
    setRate: (rate) => clock.setRate(rate),
    advance: (ms) => clock.advance(ms),
    reset: () => clock.reset(),
  }
  // A plain object of one shape for every request: about 0.15 µs (Object.create over the context,
  // which kept its index getter live, took 2 µs). The index is read now: the data as the request finds it.
  return { index: ctx.index, plans: ctx.plans, accounts: ctx.accounts, keys: ctx.keys, usage: ctx.usage, rateWindow: ctx.rateWindow, clock: reading, publishDelayMs: ctx.publishDelayMs }
}
