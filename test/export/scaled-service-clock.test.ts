import { afterAll, beforeAll, describe, expect, test } from 'vitest'
import { startMockServer, type RunningMockServer } from '../../mocks/server/index.js'
import { scaledServiceClock } from '../../cli/export/follow/scaled-service-clock.js'

const RATE = 120
let server: RunningMockServer

beforeAll(async () => {
  server = await startMockServer({ port: 0, now: '2026-01-01T00:00:00Z', clockRate: RATE })
})
afterAll(() => server.close())

describe('export --follow --clock-rate: the service time of a fast clock, from its Date headers', () => {
  test('after a few answers the estimate keeps pace with a clock running 120 times wall speed, between answers too', async () => {
    const clock = scaledServiceClock(RATE)
    for (let i = 0; i < 5; i++) await clock.fetch(`${server.url}/v1/exchanges`)
    // Half a wall second without answers: an estimate at wall speed would now lag by about 60 s.
    await new Promise((r) => setTimeout(r, 500))
    const truth = server.service.clock.now()
    // Date has whole seconds (1000 service ms) and each round trip counts 120 times: a loose bound, far under 60 s.
    expect(Math.abs(clock.now() - truth)).toBeLessThan(15_000)
  })

  test('before any answer it reads the system time, not a date scaled out of range', () => {
    const clock = scaledServiceClock(RATE)
    expect(Math.abs(clock.now() - Date.now())).toBeLessThan(5_000)
  })
})
