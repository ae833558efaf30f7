import { afterAll, beforeAll, beforeEach, describe, expect, test } from 'vitest'
import { API_KEY_HEADER } from '../../src/index.js'
import { SDK_TARGETS, type SdkTarget } from '../support/sdk-targets.js'

const NOW = '2026-06-01T00:00:00Z'
const BTC = { exchange: 'bitstamp', interval: '1h', base: 'BTC', quote: 'USD' } as const

describe.each(SDK_TARGETS)('one typed method per endpoint, via %s', (_name, connect) => {
  let target: SdkTarget
  beforeAll(async () => {
    target = await connect({ now: NOW })
  })
  afterAll(() => target.close())
  beforeEach(async () => {
    target.sent.length = 0
    await target.service.reset()
  })

  const raw = async (url: string, key?: string) =>
    (await target.service.handle({ method: 'GET', url, headers: key ? { [API_KEY_HEADER]: key } : {} })).body

  test('exchanges(), assets(), exchangePairs(), aggregatedPairs() return what the service answers', async () => {
    const client = target.client()
    expect(await client.exchanges()).toEqual(await raw('/v1/exchanges'))
    expect(await client.assets()).toEqual(await raw('/v1/assets'))
    expect(await client.exchangePairs({ exchange: 'ftx', interval: '1d' })).toEqual(await raw('/v1/exchange_pairs?exchange=ftx&interval=1d'))
    expect(await client.aggregatedPairs({ interval: '1h' })).toEqual(await raw('/v1/aggregated_pairs?interval=1h'))
    expect(await client.aggregatedPairs({ interval: '1h', method: 'omm_vwap_v1' })).toEqual(await raw('/v1/aggregated_pairs?interval=1h&method=omm_vwap_v1'))
  })

  test('exchangeOhlcv() and aggregatedOhlcv() return one page, ascending by close_ts', async () => {
    const client = target.client({ apiKey: 'demo-enterprise-key', rateLimit: false })
    const page = await client.exchangeOhlcv({ ...BTC, start: '2026-05-01', limit: 5 })
    expect(page).toEqual(await raw('/v1/exchange_ohlcv?exchange=bitstamp&interval=1h&base=BTC&quote=USD&start=2026-05-01&limit=5', 'demo-enterprise-key'))
    expect(page.map((c) => c.close_ts)).toEqual(['2026-05-01T00:00:00Z', '2026-05-01T01:00:00Z', '2026-05-01T02:00:00Z', '2026-05-01T03:00:00Z', '2026-05-01T04:00:00Z'])
    const agg = await client.aggregatedOhlcv({ interval: '1d', base: 'ETH', quote: 'USD', limit: 3 })
    expect(agg.map((c) => c.close_ts)).toEqual(['2026-05-30T00:00:00Z', '2026-05-31T00:00:00Z', '2026-06-01T00:00:00Z'])
    expect(agg[0]!.method).toBe('omm_vwap_v1')
  })

  test('start/end accept Date, ISO string or epoch milliseconds, all meaning the same instant', async () => {
    const client = target.client({ apiKey: 'demo-enterprise-key', rateLimit: false })
    const at = Date.UTC(2026, 4, 1, 6)
    const forms = [new Date(at), new Date(at).toISOString(), at, '2026-05-01T08:00:00+02:00']
    const pages = await Promise.all(forms.map((start) => client.exchangeOhlcv({ ...BTC, start, end: at + 3 * 3_600_000, limit: 10 })))
    for (const page of pages) expect(page).toEqual(pages[0])
    expect(pages[0]).toHaveLength(4)
  })

  test('the key is sent only on the two candle endpoints, never on catalog calls', async () => {
    const client = target.client({ apiKey: 'demo-pro-key' })
    await client.exchanges()
    await client.assets()
    await client.exchangePairs({ exchange: 'bitstamp', interval: '1h' })
    await client.aggregatedPairs({ interval: '1h' })
    await client.exchangeOhlcv({ ...BTC, limit: 1 })
    await client.aggregatedOhlcv({ interval: '1h', base: 'BTC', quote: 'USD', limit: 1 })
    const keyed = target.sent.map((r) => [r.url.pathname.split('/').at(-1), r.headers.get(API_KEY_HEADER)])
    expect(keyed).toEqual([
      ['exchanges', null],
      ['assets', null],
      ['exchange_pairs', null],
      ['aggregated_pairs', null],
      ['exchange_ohlcv', 'demo-pro-key'],
      ['aggregated_ohlcv', 'demo-pro-key'],
    ])
    for (const r of target.sent) expect(r.url.toString()).not.toContain('demo-pro-key')
  })

  test('every method takes an AbortSignal', async () => {
    const client = target.client({ apiKey: 'demo-pro-key' })
    const signal = AbortSignal.abort()
    const calls = [
      client.exchanges({ signal }),
      client.assets({ signal }),
      client.exchangePairs({ exchange: 'bitstamp', interval: '1h' }, { signal }),
      client.aggregatedPairs({ interval: '1h' }, { signal }),
      client.exchangeOhlcv(BTC, { signal }),
      client.aggregatedOhlcv({ interval: '1h', base: 'BTC', quote: 'USD' }, { signal }),
    ]
    for (const call of calls) await expect(call).rejects.toMatchObject({ name: 'APIUserAbortError' })
    expect(target.sent).toHaveLength(0)
  })
})
