import { expect, test } from 'vitest'
import { ROOT, barrier } from './session-suite.js'

test('a fifth session flooded to 429 meets its own rate limit only', async () => {
  const base = `${ROOT}/_sessions/flood`
  await barrier(base)
  const statuses = await Promise.all(
    Array.from({ length: 40 }, () => fetch(`${base}/v1/exchange_ohlcv?exchange=bitstamp&interval=1h&base=BTC&quote=USD&limit=1`, { headers: { 'X-API-Key': 'demo-pro-key' } }).then(async (r) => (await r.arrayBuffer(), r.status))),
  )
  expect(statuses.filter((s) => s === 429).length).toBeGreaterThanOrEqual(20)
  const usage = await (await fetch(`${base}/_mock/usage`)).json()
  expect(usage.acct_pro).toBe(statuses.filter((s) => s === 200).length)
  expect(await (await fetch(`${base}/_mock/requests?status=429`)).json()).toHaveLength(statuses.filter((s) => s === 429).length)
})
