// Jest's default CommonJS mode: msw 3 is ESM only, so `market-candles/mocks/node` cannot load here.
// The reference service as a real HTTP server (no msw) works, with the same journal and faults.
const { createClient } = require('market-candles')
const { startMockServer } = require('market-candles/mocks/server')

const PAIR = { exchange: 'bitstamp', interval: '1h', base: 'BTC', quote: 'USD' }
let server
beforeAll(async () => (server = await startMockServer({ port: 0, now: '2026-06-01T00:00:00Z' })))
afterEach(() => server.service.reset())
afterAll(() => server.close())

test('require(market-candles/mocks/node) says what to use instead', () => {
  expect(() => require('market-candles/mocks/node')).toThrow(/msw 3 is an ES module.*--experimental-vm-modules.*startMockServer/)
})

test('the journal records what the client sent, under the account', async () => {
  const client = createClient({ apiKey: 'demo-pro-key', baseUrl: server.url })
  await client.exchangeOhlcv({ ...PAIR, limit: 3 })
  expect(server.service.requests({ path: '/v1/exchange_ohlcv' })).toMatchObject([{ account: 'acct_pro', status: 200, query: { limit: '3' } }])
})

test('an injected 503 is retried once', async () => {
  server.service.faults.add({ path: '/v1/exchange_ohlcv', status: 503 })
  const client = createClient({ apiKey: 'demo-pro-key', baseUrl: server.url, retry: { limit: 1, baseDelayMs: 1 } })
  expect(await client.exchangeOhlcv({ ...PAIR, limit: 1 })).toHaveLength(1)
  expect(server.service.requests().map((r) => r.status)).toEqual([503, 200])
})
