/**
 * Bench section chaos-follow: the seeded chaos of the test suite (test/export/follow/chaos-round.ts), in
 * longer rounds. Each round starts `serve` at 60x, follows two 1m series with `export --follow`
 * into SQLite (and PostgreSQL when its binaries exist, and SQLite with `--redis` when redis-server
 * is installed) and with the SDK's `client.followMany`, plays `BENCH_CHAOS_MS` (default 60 s) of
 * faults of every kind, clock jumps, one kill of the service and one of Redis, then checks each
 * output against the service page by page. `BENCH_CHAOS_ROUNDS` (default 3) rounds; the first seed is `CHAOS_SEED` when set, and every
 * seed is printed so a failing round can be replayed (`CHAOS_SEED=N npx vitest run
 * test/export/follow/follow-chaos.test.ts` for a short one, or this section for the same length).
 */
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { freePort } from '../../test/support/free-port.js'
import { hasRedis, REDIS_SKIP_NOTE, startRedis, type RedisServer } from '../../test/support/redis-server.js'
import { POSTGRES_MISSING, startPostgres, type RunningPostgres } from '../../test/support/postgres-server.js'
import { runChaosRound, type ChaosRound } from '../../test/export/follow/chaos-round.js'
import { chaosSeed } from '../../test/export/follow/chaos-schedule.js'
import { freshDatabase } from '../../test/export/sinks/read-postgres.js'
import { median } from '../support/stats.js'
import { verdictOfOne, type BenchRow } from '../support/table.js'

/** Every series live again this soon after the faults are cleared (wall seconds). */
const CATCH_UP_GOAL_S = 30

export interface ChaosFollow {
  pass: boolean
  rounds: ChaosRound[]
  chaosMs: number
  outputs: string
  rows: BenchRow[]
}

const outageLines = (stderr: string) => stderr.split('\n').filter((l) => /export: outage( over)?: /.test(l)).length

export async function measureChaosFollow(): Promise<ChaosFollow> {
  const count = Number(process.env.BENCH_CHAOS_ROUNDS ?? 3)
  const chaosMs = Number(process.env.BENCH_CHAOS_MS ?? 60_000)
  const first = chaosSeed()
  const dir = mkdtempSync(join(tmpdir(), 'bench-chaos-follow-'))
  let pg: RunningPostgres | undefined
  let redis: RedisServer | undefined
  const rounds: ChaosRound[] = []
  try {
    if (POSTGRES_MISSING === undefined) pg = await startPostgres()
    if (hasRedis) redis = await startRedis()
    for (let i = 0; i < count; i++) {
      const seed = i === 0 ? first : (first + i * 7919) % 2 ** 31
      process.stderr.write(`chaos-follow: round ${i + 1}/${count}, seed ${seed}, ${chaosMs / 1000} s\n`)
      rounds.push(await runChaosRound({ seed, chaosMs, port: await freePort(), dir, ...(pg ? { postgresUrl: await freshDatabase(pg) } : {}), ...(redis ? { redis } : {}) }))
    }
  } finally {
    await redis?.stop()
    await pg?.destroy()
    rmSync(dir, { recursive: true, force: true })
  }
  const outputs =
    (pg ? 'SQLite and PostgreSQL' : `SQLite (PostgreSQL not measured: ${POSTGRES_MISSING})`) +
    (redis ? ', SQLite with --redis' : ` (--redis not measured: ${REDIS_SKIP_NOTE})`) +
    ', the SDK (followMany)'
  const followers = rounds.flatMap((r) => r.followers)
  const equal = followers.filter((f) => f.differences.length === 0 && f.code === 0 && f.leaked.length === 0).length
  const catchUps = followers.map((f) => (f.catchUpMs === undefined ? Infinity : f.catchUpMs / 1000))
  const worst = Math.max(...catchUps)
  const rows: BenchRow[] = [
    {
      figure: `chaos follow, ${rounds.length} rounds × ${chaosMs / 1000} s (seeds ${rounds.map((r) => r.seed).join(', ')}), ${outputs}: outputs equal to the service, exit 0 on SIGTERM (the SDK's on abort): ${equal}/${followers.length}`,
      goal: `${followers.length}/${followers.length}`,
      verdict: equal === followers.length ? 'met' : 'not met',
    },
    {
      figure: `live again after the faults are cleared: median ${median(catchUps).toFixed(1)} s, max ${Number.isFinite(worst) ? `${worst.toFixed(1)} s` : 'never (60 s)'} (wall)`,
      goal: `<= ${CATCH_UP_GOAL_S} s`,
      verdict: verdictOfOne(worst, CATCH_UP_GOAL_S, true),
    },
  ]
  return { pass: rows.every((r) => r.verdict !== 'not met'), rounds, chaosMs, outputs, rows }
}

export function reportChaosFollow(r: ChaosFollow): string[] {
  const lines = [`chaos-follow: ${r.rounds.length} rounds of ${r.chaosMs / 1000} s into ${r.outputs}`]
  for (const round of r.rounds) {
    const faults = round.log.filter((l) => l.includes(': fault ')).length
    const jumps = round.log.filter((l) => l.includes('clock jumps')).length
    lines.push(`  seed ${round.seed}: ${faults} faults, ${jumps} clock jumps, ${round.kills} kill, ${round.redisKills} kill of Redis`)
    for (const f of round.followers) {
      lines.push(
        `    ${f.name}: exit ${f.code}, ${f.differences.length === 0 ? 'equal to the service' : `${f.differences.length} differences (${f.differences.slice(0, 3).join('; ')})`}, ` +
          `${f.candles} candles, live again ${f.catchUpMs === undefined ? 'never' : `${(f.catchUpMs / 1000).toFixed(1)} s`} after the faults` +
          (f.name.startsWith('sdk') ? '' : `, ${outageLines(f.stderr)} outage lines`) +
          `${f.leaked.length ? `, LEAKED ${f.leaked.join(', ')}` : ''}`,
      )
    }
  }
  for (const row of r.rows) lines.push(`  ${row.figure}  (goal ${row.goal})  ${row.verdict}`)
  return lines
}
