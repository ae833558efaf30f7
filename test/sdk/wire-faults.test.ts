import { afterAll, beforeAll, beforeEach, describe, expect, test } from 'vitest'
import { APIConnectionError, APITimeoutError, type ExchangeCandle } from '../../src/index.js'
import { EXPLICIT_NOW, T0, explicitDataset } from '../support/fixtures.js'
import { caught, collect, sdkViaHttp, sdkViaMsw, type SdkTarget } from '../support/sdk-targets.js'

const KEY = 'demo-enterprise-key'
const ALPHA = { exchange: 'alpha', interval: '1h', base: 'BTC', quote: 'USD', start: new Date(T0).toISOString(), limit: 5 } as const
const FAST = { limit: 2, baseDelayMs: 5, maxDelayMs: 20 }
const PATH = '/v1/exchange_ohlcv'

/** A target with the truth (the walk without faults), reset before each test. */
function withTarget(connect: typeof sdkViaHttp) {
  const state = {} as { target: SdkTarget; truth: ExchangeCandle[]; client(options?: object): ReturnType<SdkTarget['client']> }
  beforeAll(async () => {
    state.target = await connect({ data: explicitDataset(), now: EXPLICIT_NOW, rateLimit: false })
    state.client = (options = {}) => state.target.client({ apiKey: KEY, rateLimit: false, ...options })
    state.truth = await collect(state.client().exchangeOhlcvCandles(ALPHA))
  })
  afterAll(() => state.target.close())
  beforeEach(() => state.target.service.reset())
  return state
}

describe.each([
  ['http', sdkViaHttp],
  ['msw', sdkViaMsw],
] as const)('the SDK under wire faults (a cut or slow answer), via %s', (_name, connect) => {
  const state = withTarget(connect)
  const client = (options = {}) => state.client(options)
  let target: SdkTarget
  let truth: ExchangeCandle[]
  beforeEach(() => {
    target = state.target
    truth = state.truth
  })

  test('a truncated page ends in the typed error (APIConnectionError) or a clean retry', async () => {
    target.service.faults.add({ path: PATH, kind: 'truncate', after_bytes: 40 })
    const error = await caught(client({ retry: false }).exchangeOhlcv(ALPHA))
    expect(error).toBeInstanceOf(APIConnectionError)
    target.service.faults.add({ path: PATH, kind: 'truncate', after_bytes: 0 })
    expect(await client({ retry: FAST }).exchangeOhlcv(ALPHA)).toEqual(truth.slice(0, 5))
    expect(target.service.requests({ path: PATH }).map((r) => r.fault?.kind ?? null)).toEqual(['truncate', 'truncate', null])
  })

  test('a slow body past the timeout ends in APITimeoutError, or a clean retry', async () => {
    target.service.faults.add({ path: PATH, kind: 'slow_body', duration_ms: 3000 })
    const error = await caught(client({ retry: false, timeout: 150 }).exchangeOhlcv(ALPHA))
    expect(error).toBeInstanceOf(APITimeoutError)
    target.service.faults.add({ path: PATH, kind: 'slow_body', duration_ms: 3000 })
    expect(await client({ retry: FAST, timeout: 1000 }).exchangeOhlcv(ALPHA)).toEqual(truth.slice(0, 5))
  })

  test('a slow body within the timeout arrives whole', async () => {
    target.service.faults.add({ path: PATH, kind: 'slow_body', bytes_per_second: 20_000 })
    expect(await client({ retry: false, timeout: 10_000 }).exchangeOhlcv(ALPHA)).toEqual(truth.slice(0, 5))
  })

})

describe('the SDK under a reset connection (the standalone server; MSW has no socket to reset)', () => {
  const state = withTarget(sdkViaHttp)
  const client = (options = {}) => state.client(options)
  let target: SdkTarget
  let truth: ExchangeCandle[]
  beforeEach(() => {
    target = state.target
    truth = state.truth
  })

  test('a reset mid-walk ends in APIConnectionError; the walk resumed from its cursor equals the truth', async () => {
    target.service.faults.add({ path: PATH, kind: 'reset', after: 2 })
    const walk = client({ retry: false }).exchangeOhlcvCandles(ALPHA)
    const head: ExchangeCandle[] = []
    const error = await caught((async () => {
      for await (const candle of walk) head.push(candle)
    })())
    expect(error).toBeInstanceOf(APIConnectionError)
    // Pages are fetched ahead, so the walk stops wherever the reset met it: a prefix of the truth.
    expect(head.length).toBeGreaterThan(0)
    expect(head).toEqual(truth.slice(0, head.length))
    const tail = await collect(client().resumeCandles(JSON.parse(JSON.stringify(walk.cursor))))
    expect([...head, ...tail]).toEqual(truth)
  })

  test('a reset mid-walk with retries on: a clean retry, the walk equals the truth', async () => {
    target.service.faults.add({ path: PATH, kind: 'reset', after: 1, times: 2 })
    expect(await collect(client({ retry: FAST }).exchangeOhlcvCandles(ALPHA))).toEqual(truth)
    expect(target.service.requests({ path: PATH }).filter((r) => r.fault?.kind === 'reset')).toHaveLength(2)
  })

})

describe('the SDK through MSW: a reset fault', () => {
  const state = withTarget(sdkViaMsw)
  test('is refused when added, naming the adapter', () => {
    expect(() => state.target.service.faults.add({ kind: 'reset' })).toThrow(/The MSW adapter cannot inject a 'reset' fault \(MSW answers without a socket/)
  })
})
