/*
 * /healthz of `export --follow --metrics-port` (cli/export/metrics/health.ts): 200 while every
 * series is live or catching up, 503 with the reason otherwise.
 */
import { describe, expect, test } from 'vitest'
import { ExportState } from '../../../cli/export/metrics/export-state.js'
import { judgeHealth, maxLagMs } from '../../../cli/export/metrics/health.js'
import { OutageWatch } from '../../../cli/export/outage/outage-watch.js'
import type { Series } from '../../../cli/export/plan/series.js'

const MINUTE = 60_000
const series = (base: string): Series => ({ kind: 'exchange', source: 'bitstamp', interval: '1m', base, quote: 'USD', first: 0, last: 0 })
const BTC = series('BTC')
const ETH = series('ETH')

function following(serviceNow: number, t: number) {
  const state = new ExportState()
  state.plan([BTC, ETH], () => undefined)
  state.followingSince = t
  state.serviceNow = () => serviceNow
  return state
}

describe('/healthz', () => {
  test('healthy while every series is live: lag within two intervals and a minute', () => {
    const t = performance.now()
    const state = following(10 * MINUTE, t)
    state.written(BTC, 1, 9 * MINUTE)
    state.written(ETH, 1, 10 * MINUTE - maxLagMs(MINUTE))
    expect(judgeHealth(state, t)).toMatchObject({ ok: true, summary: 'ok: 2 series live' })
  })

  test('a series behind with no page for a minute is unhealthy, named with its lag; one with pages coming is catching up', () => {
    const t = performance.now()
    const state = following(100 * MINUTE, t - 120_000)
    state.written(BTC, 1, 90 * MINUTE)
    state.written(ETH, 1, 99 * MINUTE)
    state.series.get('bitstamp/BTC/USD/1m')!.lastWriteAt = t - 75_000
    const health = judgeHealth(state, t)
    expect(health.ok).toBe(false)
    expect(health.summary).toBe('unhealthy: bitstamp/BTC/USD/1m: lag 10 m 00 s over 3 m 00 s, no page written for 1 m 15 s')
    state.series.get('bitstamp/BTC/USD/1m')!.lastWriteAt = t - 5_000
    expect(judgeHealth(state, t).summary).toBe('ok: 1 series live, 1 catching up')
  })

  test('an outage, or Redis failing, is unhealthy with the reason', () => {
    const t = performance.now()
    const state = following(10 * MINUTE, t)
    state.written(BTC, 1, 9 * MINUTE)
    state.written(ETH, 1, 9 * MINUTE)
    const outages = new OutageWatch({ say: () => {} })
    state.outages = outages
    outages.failure('503', true)
    expect(judgeHealth(state).summary).toMatch(/^unhealthy: outage: the service fails \(503\) for /)
    outages.live()
    expect(judgeHealth(state).ok).toBe(true)
    state.redisDownSince = performance.now() - 40_000
    expect(judgeHealth(state).summary).toMatch(/^unhealthy: Redis fails for 4\d\.\d s: requests paused$/)
  })
})
