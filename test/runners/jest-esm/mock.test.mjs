import { afterAll, afterEach, beforeAll, expect, test } from '@jest/globals'
import { createClient } from 'market-candles'
import { setupMockService } from 'market-candles/mocks/node'

const PAIR = { exchange: 'bitstamp', interval: '1h', base: 'BTC', quote: 'USD' }
const mock = setupMockService({ now: '2026-06-01T00:00:00Z' })
beforeAll(() => mock.listen())
afterEach(() => mock.reset())
afterAll(() => mock.close())

test('the journal records what the client sent, under the account', async () => {
  const client = createClient({ apiKey: 'demo-pro-key', baseUrl: mock.baseUrl })
  await client.exchangeOhlcv({ ...PAIR, limit: 3 })
  expect(mock.requests({ path: '/v1/exchange_ohlcv' })).toMatchObject([{ account: 'acct_pro', status: 200, query: { limit: '3' } }])
})

test('an injected 503 is retried once', async () => {
  mock.service.faults.add({ path: '/v1/exchange_ohlcv', status: 503 })
  const client = createClient({ apiKey: 'demo-pro-key', baseUrl: mock.baseUrl, retry: { limit: 1, baseDelayMs: 1 } })
  expect(await client.exchangeOhlcv({ ...PAIR, limit: 1 })).toHaveLength(1)
  expect(mock.requests().map((r) => r.status)).toEqual([503, 200])
})
