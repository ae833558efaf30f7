/**
 * Child of bench section `arranged` (bench/service-data/arranged-data.ts): a standalone server (startMockServer)
 * alone, then with 1,000 sessions each answering one request (their journals in use), then with each
 * session arranging 10 candles and answering a page of them. Prints `result {json}`: RSS, heapUsed and
 * new space after a full collection at each stage. Run with --expose-gc.
 */
import { getHeapSpaceStatistics } from 'node:v8'
import { MAX_SESSIONS } from '../../mocks/core/service/session-path.js'
import { startMockServer } from '../../mocks/server/index.js'
import type { ExchangeCandle } from '../../src/schemas/index.js'
import { HEADERS, NOW } from '../support/fixtures.js'

export interface MemoryStage {
  stage: string
  rssMb: number
  heapUsedMb: number
  newSpaceMb: number
}

const gc = (globalThis as { gc?: () => void }).gc
if (!gc) throw new Error('run with --expose-gc')
const MB = 1024 * 1024

function measure(stage: string): MemoryStage {
  for (let i = 0; i < 3; i++) gc!()
  const { rss, heapUsed } = process.memoryUsage()
  const newSpace = getHeapSpaceStatistics().find((s) => s.space_name === 'new_space')?.space_size ?? Number.NaN
  return { stage, rssMb: rss / MB, heapUsedMb: heapUsed / MB, newSpaceMb: newSpace / MB }
}

const HOUR = 3_600_000
const tenCandles = (session: number): ExchangeCandle[] =>
  Array.from({ length: 10 }, (_, i) => {
    const t = Date.UTC(2020, 0, 1) + (session * 10 + i) * HOUR
    return {
      exchange: 'bitstamp', interval: '1h', base: 'BTC', quote: 'USD', close_ts: new Date(t).toISOString().replace('.000Z', 'Z'),
      open: 100, high: 110, low: 90, close: 105, base_volume: 2, quote_volume: 200, source_provider: 'bench', source_channel: 'bench', flag: null,
    }
  })

const server = await startMockServer({ now: NOW, rateLimit: false })
const service = server.service
const stages: MemoryStage[] = []
// One page of the root first, so what every process pays once (the model, the index) is in the baseline.
await service.handle({ method: 'GET', url: '/v1/exchange_ohlcv?exchange=bitstamp&interval=1h&base=BTC&quote=USD&limit=10', headers: HEADERS })
stages.push(measure('server alone'))
for (let s = 0; s < MAX_SESSIONS; s++) {
  const res = await service.handle({ method: 'GET', url: `/_sessions/s${s}/v1/assets` })
  if (res.status !== 200) throw new Error(`session s${s}: ${res.status}`)
}
stages.push(measure(`${MAX_SESSIONS} sessions, one request each`))
let candles = 0
for (let s = 0; s < MAX_SESSIONS; s++) {
  const session = service.session(`s${s}`)
  candles += session.data.putCandles(tenCandles(s)).candles
  const first = tenCandles(s)[0]!.close_ts
  const res = await service.handle({ method: 'GET', url: `/_sessions/s${s}/v1/exchange_ohlcv?exchange=bitstamp&interval=1h&base=BTC&quote=USD&start=${first}&limit=10`, headers: HEADERS })
  if (res.status !== 200 || (res.body as ExchangeCandle[])[0]!.source_provider !== 'bench') throw new Error(`session s${s}: the arranged page is wrong`)
}
if (candles !== MAX_SESSIONS * 10) throw new Error(`arranged ${candles} candles`)
stages.push(measure(`${MAX_SESSIONS} sessions, 10 candles arranged and a page of them each`))
await server.close()
console.log(`result ${JSON.stringify(stages)}`)
