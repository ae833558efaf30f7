import { describe, expect, test } from 'vitest'
import { startMockServer } from '../../../mocks/server/index.js'

const KEY = { 'X-API-Key': 'demo-enterprise-key' }

describe('the /_mock state endpoints refuse cross-origin browser requests', () => {
  test('a POST /_mock/reset carrying an Origin header is 403 and changes nothing', async () => {
    const server = await startMockServer({ port: 0 })
    try {
      await fetch(`${server.url}/v1/exchange_ohlcv?exchange=bitstamp&interval=1h&base=BTC&quote=USD&limit=1`, { headers: KEY })
      const res = await fetch(`${server.url}/_mock/reset`, { method: 'POST', headers: { Origin: 'http://evil.test' } })
      expect(res.status).toBe(403)
      expect(server.service.usage().acct_enterprise).toBe(1)
    } finally {
      await server.close()
    }
  })
})
