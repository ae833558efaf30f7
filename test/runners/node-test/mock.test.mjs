import assert from 'node:assert/strict'
import { after, afterEach, before, test } from 'node:test'
import { createClient } from 'market-candles'
import { setupMockService } from 'market-candles/mocks/node'

const PAIR = { exchange: 'bitstamp', interval: '1h', base: 'BTC', quote: 'USD' }
const mock = setupMockService({ now: '2026-06-01T00:00:00Z' })
before(() => mock.listen())
afterEach(() => mock.reset())
after(() => mock.close())

test('the journal records what the client sent, under the account', async () => {
  const client = createClient({ apiKey: 'demo-pro-key', baseUrl: mock.baseUrl })
  await client.exchangeOhlcv({ ...PAIR, limit: 3 })
  const [sent, ...more] = mock.requests({ path: '/v1/exchange_ohlcv' })
  assert.equal(more.length, 0)
  assert.deepEqual([sent.account, sent.status, sent.query.limit], ['acct_pro', 200, '3'])
})

test('an injected 503 is retried once', async () => {
  mock.service.faults.add({ path: '/v1/exchange_ohlcv', status: 503 })
  const client = createClient({ apiKey: 'demo-pro-key', baseUrl: mock.baseUrl, retry: { limit: 1, baseDelayMs: 1 } })
  assert.equal((await client.exchangeOhlcv({ ...PAIR, limit: 1 })).length, 1)
  assert.deepEqual(mock.requests().map((r) => r.status), [503, 200])
})
