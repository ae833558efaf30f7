import { createClient } from '../src/index.js'
import { startMockServer } from '../mocks/server/index.js'
const START = Date.parse('2026-01-01T00:00:00Z')
const server = await startMockServer({ port: 0, now: START + 60_000 - 8_000, clockRate: 1, publishDelayMs: Number(process.argv[2] ?? 0) })
const t = () => ((server.service.clock.now() - START) / 1000).toFixed(3)
let live: any
const client = createClient({ apiKey: 'demo-pro-key', baseUrl: server.url, hooks: {
  onRequest: (e) => console.log(t(), 'req', e.endpoint, live ? `est err ${(live.serviceNow() - server.service.clock.now()).toFixed(0)} settle ${live.state.settleMs}` : ''),
  onResponse: (e) => console.log(t(), 'res', e.endpoint, e.durationMs.toFixed(1)) } })
live = client.exchangeOhlcvFollow({ exchange: 'bitstamp', interval: '1m', base: 'BTC', quote: 'USD', end: START + Number(process.argv[3] ?? 1) * 60_000 })
for await (const c of live) console.log(t(), 'candle', c.close_ts, 'settle', live.state.settleMs)
await server.close()
