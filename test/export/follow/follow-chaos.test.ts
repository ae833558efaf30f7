/*
 * Issue 28 §4, seeded chaos: `market-candles serve` at a fast clock; followers: `export --follow`
 * into SQLite, into PostgreSQL (when its binaries exist), into SQLite with `--redis` against a real
 * redis-server (when installed; skipped with a note otherwise), and the SDK's `client.followMany` in
 * this process; faults of every kind through POST /_mock/faults, the service killed and started
 * again on the same port, clock jumps, Redis killed and started again on the same port
 * (chaos-round.ts). At the end each output equals the service's series fetched page by page: no
 * gap, no duplicate. The seed
 * (CHAOS_SEED, else random) is printed and named in any failure: CHAOS_SEED=N replays the schedule.
 * bench/follow/chaos-follow.ts runs longer rounds.
 */
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll, expect, test } from 'vitest'
import { freePort } from '../../support/free-port.js'
import { hasRedis, REDIS_SKIP_NOTE, startRedis, type RedisServer } from '../../support/redis-server.js'
import { POSTGRES_MISSING, startPostgres, type RunningPostgres } from '../../support/postgres-server.js'
import { describeRound, runChaosRound, summarizeRound } from './chaos-round.js'
import { chaosSchedule, chaosSeed, describeStep } from './chaos-schedule.js'
import { freshDatabase } from '../sinks/read-postgres.js'

const SEED = chaosSeed()
const CHAOS_MS = 20_000
const REPLAY = `CHAOS_SEED=${SEED} npx vitest run test/export/follow/follow-chaos.test.ts`

let dir: string
let pg: RunningPostgres | undefined
let redis: RedisServer | undefined

beforeAll(async () => {
  console.log(`chaos seed ${SEED} (replay: ${REPLAY})`)
  dir = mkdtempSync(join(tmpdir(), 'export-follow-chaos-'))
  if (POSTGRES_MISSING === undefined) pg = await startPostgres()
  else console.warn(`PostgreSQL part SKIPPED: ${POSTGRES_MISSING}`)
  if (hasRedis) redis = await startRedis()
  else console.warn(`--redis part ${REDIS_SKIP_NOTE}`)
})
afterAll(async () => {
  await redis?.stop()
  await pg?.destroy()
  rmSync(dir, { recursive: true, force: true })
})

test(
  `seeded chaos (seed ${SEED}): faults of every kind, the service killed and restarted on the same port, clock jumps, Redis killed and restarted; each follower's output (export into SQLite, PostgreSQL, SQLite with --redis; the SDK's followMany) equals the service at the end, no gap, no duplicate`,
  async () => {
    console.log([`schedule (seed ${SEED}):`, ...chaosSchedule(SEED, CHAOS_MS, { redis: redis !== undefined }).map((s) => `  ${describeStep(s)}`)].join('\n'))
    let round
    try {
      round = await runChaosRound({ seed: SEED, chaosMs: CHAOS_MS, port: await freePort(), dir, ...(pg ? { postgresUrl: await freshDatabase(pg) } : {}), ...(redis ? { redis } : {}) })
    } catch (error) {
      throw new Error(`chaos seed ${SEED}: ${(error as Error).message}\nreplay: ${REPLAY}`)
    }
    console.log(summarizeRound(round))
    const why = (what: string) => `chaos seed ${SEED}: ${what}\nreplay: ${REPLAY}\n${describeRound(round)}`
    expect(round.kills, why('kills of the service')).toBe(1)
    expect(round.redisKills, why('kills of Redis')).toBe(redis ? 1 : 0)
    expect(round.followers.map((f) => f.name), why('the followers of the round')).toEqual(['sqlite', ...(pg ? ['postgres'] : []), ...(redis ? ['sqlite --redis'] : []), 'sdk followMany'])
    for (const f of round.followers) {
      expect(f.catchUpMs, why(`${f.name} was not live again within 60 s of the faults cleared`)).toBeDefined()
      expect(f.code, why(`${f.name}: stopping it (SIGTERM; the SDK's AbortSignal) should end it cleanly, exit 0`)).toBe(0)
      expect(f.leaked, why(`${f.name} printed a secret`)).toEqual([])
      expect(f.differences, why(`${f.name}: the output differs from the service`)).toEqual([])
      // Every pause for Redis ended: as many "answers again" lines as "fails" lines (the kill of a
      // second or more is usually seen, but not when the follower sends nothing meanwhile).
      const lines = (re: RegExp) => f.stderr.split('\n').filter((l) => re.test(l)).length
      expect(lines(/export: Redis answers again/), why(`${f.name}: a pause for Redis did not end`)).toBe(lines(/export: Redis fails/))
    }
  },
  240_000,
)
