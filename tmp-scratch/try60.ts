import { createClient } from '../src/index.js'
import { startMockServer } from '../mocks/server/index.js'
const rate = Number(process.argv[2] ?? 60)
const delay = Number(process.argv[3] ?? 0)
const server = await startMockServer({ port: 0, now: '2026-01-01T00:00:30Z', clockRate: rate, publishDelayMs: delay })
let requests = 0, probes = 0
const client = createClient({ apiKey: 'demo-pro-key', baseUrl: server.url, hooks: { onRequest: (e) => { if (e.endpoint === 'exchange_ohlcv') requests++; else if (e.endpoint === 'exchanges') probes++ } } })
const t0 = performance.now()
const live = client.exchangeOhlcvFollow({ exchange: 'bitstamp', interval: '1m', base: 'BTC', quote: 'USD', start: '2026-01-01T00:00:00Z', end: '2026-01-01T00:20:00Z' })
for await (const c of live) {
  const lag = server.service.clock.now() - Date.parse(c.close_ts) - delay
  console.log(((performance.now() - t0) / 1000).toFixed(2), c.close_ts.slice(11, 19), 'lag', lag.toFixed(0), 'req', requests, 'probes', probes, 'settle', live.state.settleMs)
  if (process.argv[4] && c.close_ts.endsWith('10:00Z')) { await fetch(`${server.url}/_mock/clock`, { method: 'POST', body: JSON.stringify({ rate: Number(process.argv[4]) }), headers: { 'content-type': 'application/json' } }) ; console.log('rate ->', process.argv[4]) }
}
await server.close()
