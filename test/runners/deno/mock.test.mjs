import assert from 'node:assert/strict'
import { createClient } from 'market-candles'
import { setupMockService } from 'market-candles/mocks/node'

const PAIR = { exchange: 'bitstamp', interval: '1h', base: 'BTC', quote: 'USD' }

// The client's timers may outlive a step: Deno's sanitizers would count them.
Deno.test({ name: 'the reference service through MSW', sanitizeOps: false, sanitizeResources: false }, async (t) => {
  // msw 3 cannot intercept this runtime's network (listen() fails); mock.fetch answers from the same
  // handlers without interception.
  const mock = setupMockService({ now: '2026-06-01T00:00:00Z' })
  await t.step('the journal records what the client sent, under the account', async () => {
    const client = createClient({ apiKey: 'demo-pro-key', baseUrl: mock.baseUrl, fetch: mock.fetch })
    await client.exchangeOhlcv({ ...PAIR, limit: 3 })
    const [sent, ...more] = mock.requests({ path: '/v1/exchange_ohlcv' })
    assert.equal(more.length, 0)
    assert.deepEqual([sent.account, sent.status, sent.query.limit], ['acct_pro', 200, '3'])
  })
  await mock.reset()
  await t.step('an injected 503 is retried once', async () => {
    mock.service.faults.add({ path: '/v1/exchange_ohlcv', status: 503 })
    const client = createClient({ apiKey: 'demo-pro-key', baseUrl: mock.baseUrl, fetch: mock.fetch, retry: { limit: 1, baseDelayMs: 1 } })
    assert.equal((await client.exchangeOhlcv({ ...PAIR, limit: 1 })).length, 1)
    assert.deepEqual(mock.requests().map((r) => r.status), [503, 200])
  })
})
