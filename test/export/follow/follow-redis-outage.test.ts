/*
 * `export --follow --redis`: a Redis outage does not end the follower. Requests pause while Redis
 * fails (nothing is sent outside the shared window), with one line as it fails and one as it is
 * back; Redis started again on the same port (empty, no persistence) brings no 429s. Against a
 * real redis-server (skipped with a note without one) and `serve` with a running clock.
 */
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, test } from 'vitest'
import { freePort } from '../../support/free-port.js'
import { hasRedis, REDIS_SKIP_NOTE, startRedis, type RedisServer } from '../../support/redis-server.js'
import { outputDifferences, startServe, type Serve } from './follow-service.js'
import { sqliteRows } from '../sinks/read-output.js'
import { startCli, waitFor, type RunningCli } from '../run-cli.js'

const KEY = 'demo-enterprise-key'
const PASSWORD = 'redis-pw-follow-7Qk'
const MINUTE = 60_000
const NOW = Date.parse('2026-01-01T00:00:00Z')
const RATE = 60
const START = new Date(NOW - 5 * MINUTE).toISOString()
const PAIRS = ['BTC/USD', 'ETH/USD']

let dir: string
let redis: RedisServer | undefined
let serve: Serve | undefined
const children: RunningCli[] = []

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'export-follow-redis-'))
  if (!hasRedis) {
    console.warn(REDIS_SKIP_NOTE)
    return
  }
  redis = await startRedis({ password: PASSWORD })
  serve = await startServe(await freePort(), NOW, RATE)
})
afterAll(async () => {
  for (const cli of children) if (cli.child.exitCode === null && cli.child.signalCode === null) cli.child.kill('SIGKILL')
  await Promise.all(children.map((cli) => cli.result))
  await serve?.kill()
  await redis?.stop()
  rmSync(dir, { recursive: true, force: true })
})

describe.skipIf(!hasRedis)('export --follow --redis', () => {
  test(
    'Redis killed and restarted on the same port: requests pause with one line as it fails and one as it is back, the follow goes on, no 429 when it returns, no password printed or in a metric; the output equals the service',
    async () => {
      const out = join(dir, 'redis.sqlite')
      const args = [
        'export', '--base-url', serve!.url, '--exchange', 'bitstamp', ...PAIRS.flatMap((p) => ['--pair', p]), '--interval', '1m', '--start', START,
        '--follow', '--clock-rate', String(RATE), '--out', out, '--progress-interval', '1', '--metrics-port', '0',
      ]
      const cli = startCli(args, { MARKET_CANDLES_API_KEY: KEY, MARKET_CANDLES_REDIS_URL: redis!.url }, 120_000)
      children.push(cli)
      await waitFor(() => /following 2 series: newest candle/.test(cli.output().stderr) || cli.child.exitCode !== null, 30_000, 'the follow at the edge')
      const metricsUrl = /metrics on (http:\/\/127\.0\.0\.1:\d+\/metrics)/.exec(cli.output().stderr)![1]!

      await redis!.kill()
      await waitFor(() => /export: Redis fails /.test(cli.output().stderr) || cli.child.exitCode !== null, 20_000, 'the Redis line')
      expect(cli.child.exitCode, cli.output().stderr).toBeNull()
      const health = await fetch(metricsUrl.replace('/metrics', '/healthz'))
      expect(health.status).toBe(503)
      expect(await health.text()).toContain('requests paused')
      const pausedAt = sqliteRows(out, 'exchange_candles').length
      await new Promise((r) => setTimeout(r, 4000))
      await redis!.restart()
      await waitFor(() => /export: Redis answers again after /.test(cli.output().stderr) || cli.child.exitCode !== null, 30_000, 'Redis back')
      // The follow catches up the minutes it paused and goes on.
      await waitFor(() => sqliteRows(out, 'exchange_candles').length >= pausedAt + 2 * 6, 30_000, 'candles after Redis is back')
      const metrics = await (await fetch(metricsUrl)).text()
      expect(metrics).not.toMatch(/market_candles_requests_total\{status="429"\}/)
      expect(Number(/^market_candles_redis_down_seconds_total (\S+)$/m.exec(metrics)?.[1])).toBeGreaterThan(3)
      expect(metrics).not.toContain(PASSWORD)

      cli.child.kill('SIGTERM')
      const r = await cli.result
      expect(r.code, r.stderr).toBe(0)
      expect(r.stderr.split('\n').filter((l) => l.includes('export: Redis fails'))).toHaveLength(1)
      expect(r.stderr.split('\n').filter((l) => l.includes('export: Redis answers again'))).toHaveLength(1)
      expect(r.stderr).toMatch(/, 0 × 429/)
      expect(r.stderr).not.toMatch(/[1-9]\d* × 429/)
      expect(r.stderr).not.toContain(PASSWORD)
      expect(r.stderr).toContain('redis://:***@127.0.0.1')
      expect(await outputDifferences(serve!.url, KEY, sqliteRows(out, 'exchange_candles'), PAIRS, START)).toEqual([])
    },
    120_000,
  )
})
