/*
 * `market-candles export --shard I/N` and `--redis URL`: N processes export a whole set of series
 * together, sharing the account's rate limit through a real redis-server (skipped without it,
 * saying how to install it). The Redis password is never printed.
 */
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, test } from 'vitest'
import { startMockServer, type RunningMockServer } from '../../mocks/server/index.js'
import { shardOfPair } from '../../cli/export/limits/shard.js'
import { redactRedisArgs } from '../../cli/export/limits/redis-limit.js'
import { hasRedis, REDIS_SKIP_NOTE, startRedis, type RedisServer } from '../support/redis-server.js'
import { csvFile } from './sinks/read-output.js'
import { exportInProcess } from './export-in-process.js'
import { runCli } from './run-cli.js'

const NOW = '2025-01-01T00:00:00Z'
const PASSWORD = 'redis-pw-Qx81z'
let server: RunningMockServer
let dir: string
let env: Record<string, string>

beforeAll(async () => {
  server = await startMockServer({ port: 0, now: NOW, latency: 20 })
  dir = mkdtempSync(join(tmpdir(), 'export-shards-'))
  env = { MARKET_CANDLES_API_KEY: 'demo-enterprise-key', MARKET_CANDLES_BASE_URL: server.url }
})
afterAll(async () => {
  await server?.close()
  rmSync(dir, { recursive: true, force: true })
})

const ALL = ['export', '--exchange', 'bitstamp', '--all-pairs', '--interval', '1d', '--start', '2024-10-01']
/**
 * `market-candles export ...` in process (runExport, what the CLI's export command runs) for the runs
 * that check only their output, messages and exit code; the shard processes sharing Redis and --help
 * stay the CLI as a process.
 */
const exportRun = (args: readonly string[], runEnv: Record<string, string>) => {
  if (args[0] !== 'export') throw new Error(`not an export command line: ${args.join(' ')}`)
  return exportInProcess(args.slice(1), runEnv)
}
const rowsOf = (path: string) => csvFile(path).rows.map((r) => r.join(','))

describe('market-candles export --shard and --redis: bad values print the usage and exit 2', () => {
  test.each([
    [['--shard', '0/4'], '--shard must be I/N with 1 <= I <= N <= 1000'],
    [['--shard', '5/4'], '--shard must be I/N'],
    [['--shard', 'half'], "--shard must be I/N with 1 <= I <= N <= 1000 (this process's share of N), e.g. --shard 2/4, got 'half'"],
    [['--redis', `http://:${PASSWORD}@127.0.0.1:6379`], '--redis must be a redis:// or rediss:// URL'],
    [['--redis', `redis://:${PASSWORD}@127.0.0.1:6379`, '--rate-limit', 'off'], '--redis shares a rate limit: it cannot go with --rate-limit off'],
  ])('%j', async (flags, message) => {
    const r = await exportRun([...ALL, '--out', join(dir, 'bad.csv'), ...flags], env)
    expect(r.code).toBe(2)
    expect(r.stderr).toContain(message)
    expect(r.stderr + r.stdout).not.toContain(PASSWORD)
  })
})

describe('the Redis password is never printed', () => {
  test('the command line an interrupted export prints to resume holds the Redis URL with its password as ***', () => {
    const argv = ['--exchange', 'bitstamp', '--redis', `redis://:${PASSWORD}@h:6379/2`, `--redis=redis://user:${PASSWORD}@h:1`]
    const shown = redactRedisArgs(argv).join(' ')
    expect(shown).not.toContain(PASSWORD)
    expect(shown).toContain('--redis redis://:***@h:6379/2')
    expect(shown).toContain('--redis=redis://user:***@h:1')
  })

  test('--help shows a placeholder only', async () => {
    const r = await exportInProcess(['--help'], env)
    expect(r.code).toBe(0)
    expect(r.stdout).toContain('--redis URL')
    expect(r.stdout).toContain('redis://:PASSWORD@host:6379')
  })
})

describe('--shard I/N takes a fixed share of the series', () => {
  test('the shares of 1/3, 2/3 and 3/3 are disjoint and together hold exactly the whole export', async () => {
    const whole = await exportRun([...ALL, '--out', join(dir, 'whole.csv')], env)
    expect(whole.code).toBe(0)
    const parts: string[][] = []
    for (const i of [1, 2, 3]) {
      const r = await exportRun([...ALL, '--out', join(dir, `part-${i}.csv`), '--shard', `${i}/3`], env)
      expect(r.code, r.stderr).toBe(0)
      expect(r.stderr).toMatch(new RegExp(`shard ${i}/3: \\d+ of \\d+ series`))
      parts.push(rowsOf(join(dir, `part-${i}.csv`)))
    }
    const all = rowsOf(join(dir, 'whole.csv'))
    expect(parts.flat().sort()).toEqual([...all].sort())
    expect(new Set(parts.flat()).size).toBe(all.length)
  }, 60_000)

  test('a pair belongs to the same shard whatever else the catalog holds', () => {
    expect(shardOfPair({ base: 'BTC', quote: 'USD' }, 4)).toBe(shardOfPair({ base: 'BTC', quote: 'USD' }, 4))
    const counts = [0, 0, 0, 0]
    for (const base of ['BTC', 'ETH', 'SOL', 'ADA', 'XRP', 'DOT', 'LTC', 'DOGE']) for (const quote of ['USD', 'EUR']) counts[shardOfPair({ base, quote }, 4) - 1]!++
    expect(counts.every((n) => n >= 1)).toBe(true)
  })
})

describe.skipIf(!hasRedis)(`--redis shares the account's rate limit between export processes${hasRedis ? '' : ` (${REDIS_SKIP_NOTE})`}`, () => {
  let redis: RedisServer
  beforeAll(async () => {
    redis = await startRedis({ password: PASSWORD })
    // The earlier tests' requests (limited in-process, unseen by Redis) leave the service's window first.
    await new Promise((resolve) => setTimeout(resolve, 1500))
  })
  afterAll(async () => {
    await redis?.stop()
  })

  test('two shard processes at once, one account, one Redis: every series exported, no 429, the password never printed', async () => {
    const hourly = ['export', '--exchange', 'bitstamp', '--all-pairs', '--interval', '1h', '--start', '2024-12-20']
    const runs = await Promise.all(
      [1, 2].map((i) => runCli([...hourly, '--out', join(dir, `redis-${i}.csv`), '--shard', `${i}/2`, '--redis', redis.url], env, 60_000)),
    )
    for (const r of runs) {
      expect(r.code, r.stderr).toBe(0)
      expect(r.stderr).toMatch(/rate limit of 10\/s shared through Redis at redis:\/\/:\*\*\*@127\.0\.0\.1:\d+/)
      expect(r.stderr).toMatch(/, 0 × 429,/)
      expect(r.stderr + r.stdout).not.toContain(PASSWORD)
    }
    const alone = await exportRun([...hourly, '--out', join(dir, 'redis-whole.csv')], env)
    expect(alone.code).toBe(0)
    expect([...rowsOf(join(dir, 'redis-1.csv')), ...rowsOf(join(dir, 'redis-2.csv'))].sort()).toEqual(rowsOf(join(dir, 'redis-whole.csv')).sort())
  }, 90_000)

  test('MARKET_CANDLES_REDIS_URL with a wrong password: exit 1 with a clear message, the password never printed', async () => {
    const wrong = redis.url.replace(PASSWORD, 'not-it-Zq2')
    const r = await exportRun([...ALL, '--out', join(dir, 'wrong.csv')], { ...env, MARKET_CANDLES_REDIS_URL: wrong })
    expect(r.code).toBe(1)
    expect(r.stderr).toMatch(/Redis refused the credentials/)
    expect(r.stderr + r.stdout).not.toContain('not-it-Zq2')
  }, 40_000)
})
