import { getEventListeners } from 'node:events'
import { afterEach, describe, expect, test } from 'vitest'
import { sdkViaHttp, type SdkTarget } from '../../support/sdk-targets.js'

const KEY = 'demo-pro-key'
const MIN = 60_000
const NOW = Date.parse('2026-01-01T00:00:01Z')
const PAIRS = ['BTC/USD', 'ETH/USD', 'XRP/USD']
/** The follow's default `concurrency`: requests in flight at once, each with one listener on the follow's signal. */
const CONCURRENCY = 8

let target: SdkTarget | undefined
afterEach(async () => {
  await target?.close()
  target = undefined
})

/**
 * Records every AbortSignal that gets an `abort` listener from JavaScript code while `run` goes, so
 * the listeners still attached can be counted at any moment (node's getEventListeners reads them off
 * the signal). The runtime's own fetch keeps a listener on the signal of each Request it builds until
 * that Request is collected: listeners added from node's internals are not the SDK's, and not counted.
 */
async function watchingAbortListeners<T>(run: (attached: () => number) => Promise<T>): Promise<{ value: T; added: number; attached: () => number }> {
  const signals = new Set<AbortSignal>()
  let added = 0
  const original = EventTarget.prototype.addEventListener
  EventTarget.prototype.addEventListener = function (this: EventTarget, type: string, ...rest: unknown[]) {
    if (type === 'abort' && this instanceof AbortSignal && !new Error().stack?.split('\n')[2]?.includes('(node:')) {
      signals.add(this)
      added++
    }
    return (original as (...a: unknown[]) => void).call(this, type, ...rest)
  } as typeof original
  const attached = () => [...signals].reduce((n, s) => n + (s.aborted ? 0 : getEventListeners(s, 'abort').length), 0)
  try {
    const value = await run(attached)
    return { value, added, attached }
  } finally {
    EventTarget.prototype.addEventListener = original
  }
}

describe('follow: signal aborts, break stops cleanly, and nothing is left running', () => {
  test('no AbortSignal listener is left behind by a poll: as many attached after dozens of polls as after the first, none after the end', async () => {
    // The clock stands at NOW until the follow starts (a loaded machine may take a second to get
    // there: 4 service minutes at 240x), then runs at 240x: a new 1m candle every quarter second.
    target = await sdkViaHttp({ now: NOW, clockRate: 0 })
    const service = target.service
    // The runtime's fetch adds a listener to the signal it is given, removed only when its Request is
    // collected: given none, the signals counted are the caller's and the SDK's own.
    let polls = 0
    // Each series' first answer, in service time: a series follows from its own first answer on.
    const firstPolls = new Map<string, number>()
    const client = target.client({
      apiKey: KEY,
      rateLimit: false,
      hooks: {
        onRequest: (e) => {
          if (e.endpoint.endsWith('ohlcv')) polls++
        },
        // Read when the answer is in: a candle that closed while the first request was on its way
        // is in that answer, not in the follow (at 240x, 60 ms of a loaded machine is 14 s of service time).
        onResponse: (e) => {
          if (!e.endpoint.endsWith('ohlcv')) return
          const query = new URL(e.url).searchParams
          const key = `${e.endpoint} ${query.get('base')}/${query.get('quote')}`
          if (!firstPolls.has(key)) firstPolls.set(key, service.clock.now())
        },
      },
      fetch: (input, init) => fetch(input, { method: init?.method, headers: init?.headers }),
    })
    // 40 minutes at 240x: ten wall seconds, room for twenty closes after a loaded machine's slow start.
    const END = NOW + 40 * MIN
    const series = PAIRS.flatMap((pair) => {
      const [base, quote] = pair.split('/') as [string, string]
      return [
        { endpoint: 'exchange_ohlcv' as const, exchange: 'bitstamp', interval: '1m', base, quote, end: END },
        { endpoint: 'aggregated_ohlcv' as const, interval: '1m', base, quote, end: END },
      ]
    })
    const controller = new AbortController()
    const { value: counts, added, attached } = await watchingAbortListeners(async (attachedNow) => {
      const counts: number[] = []
      service.clock.setRate(240)
      const live = client.followMany(series, { now: () => service.clock.now(), signal: controller.signal })
      for await (const _ of live) counts.push(attachedNow())
      return counts
    })
    // Every candle that closed between the first polls and the end came through the follow: how many
    // follows from the service's time at the last series' first poll (a loaded machine starts the
    // series a poll or more apart, and later), and the follow ran long enough for dozens of polls,
    // each of which attached and removed listeners: the count cannot pass by accident.
    expect(firstPolls.size).toBe(series.length)
    const firstPollAt = Math.max(...firstPolls.values())
    const closedWhileFollowing = Math.floor(END / MIN) - Math.floor(firstPollAt / MIN)
    expect(closedWhileFollowing).toBeGreaterThanOrEqual(20)
    expect(counts.length).toBeGreaterThanOrEqual(series.length * closedWhileFollowing)
    expect(polls).toBeGreaterThanOrEqual(60)
    expect(added).toBeGreaterThan(polls)
    // While it runs: the caller's signal holds one listener, the follow's own one per request in flight.
    expect(Math.max(...counts)).toBeLessThanOrEqual(1 + CONCURRENCY + 1)
    expect(attached()).toBe(0)
  }, 60_000)
})
