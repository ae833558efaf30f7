import { afterAll, beforeAll, beforeEach, describe, expect, test } from 'vitest'
import { formatTimestamp } from '../../src/contract/index.js'
import { ENTERPRISE, FREE, PRO, TRANSPORTS, qs, type Transport } from '../support/transports.js'

const NOW = Date.UTC(2026, 5, 1)
const DAY = 86_400_000
const ex = (params: Record<string, string | number | undefined>) =>
  `/v1/exchange_ohlcv${qs({ exchange: 'bitstamp', base: 'BTC', quote: 'USD', ...params })}`
const agg = (params: Record<string, string | number | undefined>) => `/v1/aggregated_ohlcv${qs({ base: 'BTC', quote: 'USD', ...params })}`

describe.each(TRANSPORTS)('plans and history depth via %s', (_name, connect) => {
  let t: Transport
  beforeAll(async () => {
    t = await connect({ now: NOW })
  })
  afterAll(() => t.close())
  beforeEach(() => t.service.reset())

  test('calling an endpoint that the plan does not include fails with 403', async () => {
    const res = await t.get(agg({ interval: '1h' }), FREE)
    expect(res.status).toBe(403)
    expect(res.body).toEqual({ detail: "Plan 'free' does not include aggregated_ohlcv" })
  })

  test('calling an interval that the plan does not include fails with 403', async () => {
    const res = await t.get(ex({ interval: '1m' }), FREE)
    expect(res.status).toBe(403)
    expect(res.body).toEqual({ detail: "Plan 'free' does not include interval '1m' on exchange_ohlcv" })
  })

  test('start older than now - depth gives 403 with a detail naming the depth', async () => {
    const start = formatTimestamp(NOW - 31 * DAY)
    const res = await t.get(ex({ interval: '1h', start }), FREE)
    expect(res.status).toBe(403)
    expect(res.body.detail).toContain('30 days (P30D)')
    expect(res.body.detail).toContain(start)
    // the depth is per endpoint and interval: pro reaches 90 days of 1m, 730 of 1h
    expect((await t.get(ex({ interval: '1m', start: formatTimestamp(NOW - 91 * DAY) }), PRO)).status).toBe(403)
    expect((await t.get(ex({ interval: '1m', start: formatTimestamp(NOW - 89 * DAY) }), PRO)).status).toBe(200)
    expect((await t.get(agg({ interval: '1m', start: formatTimestamp(NOW - 31 * DAY) }), PRO)).status).toBe(403)
    expect((await t.get(ex({ interval: '1h', start: formatTimestamp(NOW - 700 * DAY) }), PRO)).status).toBe(200)
  })

  test('start exactly at the horizon is allowed; one millisecond older is not', async () => {
    const horizon = NOW - 30 * DAY
    expect((await t.get(ex({ interval: '1h', start: new Date(horizon).toISOString() }), FREE)).status).toBe(200)
    expect((await t.get(ex({ interval: '1h', start: new Date(horizon - 1).toISOString() }), FREE)).status).toBe(403)
  })

  test('the unlimited plan reaches back to the first candle', async () => {
    const res = await t.get(ex({ interval: '1d', start: '2000-01-01', limit: 1 }), ENTERPRISE)
    expect(res.status).toBe(200)
    expect(res.body[0].close_ts).toBe('2015-01-02T00:00:00Z')
  })

  test('with start omitted, the page never reaches past now - depth: backward paging ends there cleanly', async () => {
    const horizon = NOW - 30 * DAY
    const res = await t.get(ex({ interval: '1h', limit: 1000 }), FREE)
    expect(res.status).toBe(200)
    expect(res.body).toHaveLength(30 * 24 + 1) // [horizon, now] on the hour grid, no outage in that month
    expect(Date.parse(res.body[0].close_ts)).toBe(horizon)
    const before = await t.get(ex({ interval: '1h', end: new Date(horizon - 1).toISOString() }), FREE)
    expect(before.status).toBe(200)
    expect(before.body).toEqual([])
  })

  test('a request rejected for permission reasons is never counted in usage', async () => {
    await t.get(agg({ interval: '1h' }), FREE)
    await t.get(ex({ interval: '1m' }), FREE)
    await t.get(ex({ interval: '1h', start: '2020-01-01' }), FREE)
    expect(t.service.usage().acct_free).toBe(0)
  })
})

describe('custom plans can be defined by a test', () => {
  test('a plan with only aggregated_ohlcv at 1d and a 7-day depth', async () => {
    const { viaMsw } = await import('../support/transports.js')
    const t = await viaMsw({
      now: NOW,
      plans: [{ id: 'tiny', endpoints: { aggregated_ohlcv: { '1d': 'P7D' } } }],
      accounts: [{ id: 'a1', plan: 'tiny' }],
      keys: [{ key: 'k1', account: 'a1' }],
    })
    const key = { 'X-API-Key': 'k1' }
    expect((await t.get(agg({ interval: '1d' }), key)).body).toHaveLength(8)
    expect((await t.get(agg({ interval: '1h' }), key)).status).toBe(403)
    expect((await t.get(ex({ interval: '1d' }), key)).status).toBe(403)
    expect((await t.get(agg({ interval: '1d', start: formatTimestamp(NOW - 8 * DAY) }), key)).body.detail).toContain('7 days (P7D)')
    expect(t.service.usage()).toEqual({ a1: 1 })
  })
})
