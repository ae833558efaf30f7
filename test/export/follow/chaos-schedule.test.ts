/*
 * The chaos schedule alone (chaos-schedule.ts): the same seed gives the same steps; every fault
 * kind, one kill of the service, hangs only before it; with `redis`, one kill of Redis added and
 * every other step unchanged (a seed replays the same with or without redis-server installed).
 */
import { expect, test } from 'vitest'
import { chaosSchedule } from './chaos-schedule.js'

const SEEDS = [1, 202, 303, 1549368505, 2 ** 31 - 1]

test('a seed gives the same schedule; every fault kind, one kill, hangs before it; Redis adds one kill of its own and changes nothing else', () => {
  for (const seed of SEEDS) {
    const plain = chaosSchedule(seed, 20_000)
    expect(chaosSchedule(seed, 20_000), `seed ${seed}`).toEqual(plain)
    const kills = plain.filter((s) => s.kind === 'kill')
    expect(kills, `seed ${seed}`).toHaveLength(1)
    const kinds = new Set(plain.flatMap((s) => (s.kind === 'fault' ? [s.fault.status === 429 ? 'rate-limited' : String(s.fault.kind)] : [])))
    for (const kind of ['status', 'rate-limited', 'network_error', 'reset', 'truncate', 'slow_body', 'latency']) expect(kinds.has(kind), `seed ${seed}: ${kind}`).toBe(true)
    for (const s of plain) if (s.kind === 'fault' && s.fault.kind === 'hang') expect(s.atMs, `seed ${seed}`).toBeLessThan(kills[0]!.atMs)
    expect(plain.some((s) => s.kind === 'redis-kill'), `seed ${seed}`).toBe(false)

    const withRedis = chaosSchedule(seed, 20_000, { redis: true })
    const redisKills = withRedis.filter((s) => s.kind === 'redis-kill')
    expect(redisKills, `seed ${seed}`).toHaveLength(1)
    expect(redisKills[0]!.atMs).toBeGreaterThanOrEqual(500)
    expect(redisKills[0]!.atMs).toBeLessThanOrEqual(16_000)
    expect(redisKills[0]!.downMs).toBeGreaterThanOrEqual(1000)
    expect(redisKills[0]!.downMs).toBeLessThanOrEqual(4000)
    expect(withRedis.filter((s) => s.kind !== 'redis-kill'), `seed ${seed}`).toEqual(plain)
  }
})
