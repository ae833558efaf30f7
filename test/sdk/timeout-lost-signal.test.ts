import { setFlagsFromString } from 'node:v8'
import { runInNewContext } from 'node:vm'
import { afterEach, describe, expect, test } from 'vitest'
import { APITimeoutError, APIUserAbortError, createClient } from '../../src/index.js'
import { formatTimestamp } from '../../src/contract/index.js'
import { caught, sdkViaHttp, type SdkTarget } from '../support/sdk-targets.js'

/*
 * A request's `timeout` (and the caller's signal) end it even when the fetch never hears of them.
 * Node's fetch loses the signal of a Request built from another Request once that one is garbage
 * collected (nodejs/undici#4068): a `fetch` option that wraps its arguments in
 * `new Request(input, init)`, as instrumentation often does, then left a hung request hanging for
 * ever, and a follow waiting on it with it. The garbage collection is forced here, so the case is met
 * on every run.
 */

setFlagsFromString('--expose-gc')
const gc = runInNewContext('gc') as () => void

/** A fetch option that wraps its arguments in a Request of its own, then lets the collector run. */
const wrappingFetch: typeof fetch = async (input, init) => {
  const answer = fetch(new Request(input, init))
  setTimeout(gc, 20)
  return answer
}

const KEY = 'demo-pro-key'
const MIN = 60_000
const NOW = Date.parse('2026-01-01T00:00:00Z')
const BTC = { exchange: 'bitstamp', interval: '1m', base: 'BTC', quote: 'USD' } as const

let target: SdkTarget | undefined
afterEach(async () => {
  await target?.close()
  target = undefined
})

describe('a request is ended by its timeout or its signal, even when the fetch loses the signal', () => {
  test('a hung request through a fetch option that wraps it in a new Request: APITimeoutError at the timeout', async () => {
    target = await sdkViaHttp({ now: NOW })
    target.service.faults.add({ path: '/v1/exchanges', kind: 'hang' })
    const client = target.client({ fetch: wrappingFetch, retry: false })
    const started = performance.now()
    const error = await caught(client.exchanges({ timeout: 300 }))
    expect(error).toBeInstanceOf(APITimeoutError)
    // Ended by the limit, not by the server closing (afterEach) nor by the test's own timeout.
    expect(performance.now() - started).toBeLessThan(3000)
  })

  test('a fetch that ignores the signal and never settles: APITimeoutError at the timeout', async () => {
    const client = createClient({ baseUrl: 'http://127.0.0.1:9', fetch: () => new Promise<Response>(() => {}), retry: false })
    const error = await caught(client.exchanges({ timeout: 50 }))
    expect(error).toBeInstanceOf(APITimeoutError)
    expect(error.message).toContain('50 ms')
  })

  test('a fetch that ignores the signal: aborting the caller signal ends the request with APIUserAbortError', async () => {
    const client = createClient({ baseUrl: 'http://127.0.0.1:9', fetch: () => new Promise<Response>(() => {}), retry: false, timeout: false })
    const controller = new AbortController()
    setTimeout(() => controller.abort(), 20)
    expect(await caught(client.exchanges({ signal: controller.signal }))).toBeInstanceOf(APIUserAbortError)
  })

  test('a body that never ends, through a fetch that ignores the signal: APITimeoutError at the timeout', async () => {
    const hanging = () => new Response(new ReadableStream({ start: (c) => c.enqueue(new TextEncoder().encode('[')) }), { headers: { 'content-type': 'application/json' } })
    const client = createClient({ baseUrl: 'http://127.0.0.1:9', fetch: async () => hanging(), retry: false })
    expect(await caught(client.exchanges({ timeout: 50 }))).toBeInstanceOf(APITimeoutError)
  })

  test('a follow over HTTP with hung candle requests, through such a fetch option: every candle once, to its end', async () => {
    target = await sdkViaHttp({ now: NOW, clockRate: 600 })
    target.service.faults.add({ path: '/v1/exchange_ohlcv', after: 3, kind: 'hang', times: 4 })
    const service = target.service
    const live = target
      .client({ apiKey: KEY, retry: false, fetch: wrappingFetch })
      .exchangeOhlcvFollow({ ...BTC, start: NOW - 5 * MIN, end: NOW + 10 * MIN }, { now: () => service.clock.now(), timeout: 500 })
    const seen: string[] = []
    for await (const candle of live) seen.push(candle.close_ts)
    expect(seen).toEqual(Array.from({ length: 16 }, (_, i) => formatTimestamp(NOW - 5 * MIN + i * MIN)))
  }, 30_000)
})
