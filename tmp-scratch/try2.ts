import { DateClock } from '../src/follow/date-clock.js'
import { startMockServer } from '../mocks/server/index.js'
const START = Date.parse('2026-01-01T00:00:00Z')
const server = await startMockServer({ port: 0, now: START + 60_000 - 8_000, clockRate: 1 })
const clock = new DateClock()
const ask = async () => { const s = Date.now(); const r = await fetch(server.url + '/v1/exchanges'); await r.text(); clock.observe(r.headers.get('date'), s, Date.now()) }
await ask()
for (let i = 0; i < 12; i++) {
  const at = clock.probeAt()
  console.log('probeAt in', at === undefined ? 'none' : (at - Date.now()).toFixed(1), 'spread', clock.spread().toFixed(1), 'err', (clock.now() - server.service.clock.now()).toFixed(1), 'speed', clock.speed)
  if (at === undefined) break
  await new Promise((r) => setTimeout(r, Math.max(0, at - Date.now())))
  clock.probing()
  await ask()
}
await server.close()
