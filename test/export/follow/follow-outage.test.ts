/*
 * `market-candles export --follow` in the field (issue 28): the service killed and started again on
 * the same port 12 s later is waited out with one line as the outage starts and one as it ends;
 * /metrics and /healthz tell it meanwhile; SIGTERM stops the follower with exit 0; the output then
 * holds exactly the service's candles. All against `serve` with a running clock, over HTTP.
 */
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, test } from 'vitest'
import { freePort } from '../../support/free-port.js'
import { outputDifferences, killAndRestart, startServe, type Serve } from './follow-service.js'
import { sqliteRows } from '../sinks/read-output.js'
import { exportInProcess } from '../export-in-process.js'
import { startCli, waitFor, type RunningCli } from '../run-cli.js'

const KEY = 'demo-enterprise-key'
const MINUTE = 60_000
const NOW = Date.parse('2026-01-01T00:00:00Z')
// A new 1m candle every wall second.
const RATE = 60
const START = new Date(NOW - 5 * MINUTE).toISOString()
const PAIRS = ['BTC/USD', 'ETH/USD']

let dir: string
const children: RunningCli[] = []
const services: Serve[] = []

beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), 'export-follow-outage-'))
})
afterAll(async () => {
  for (const s of services) await s.kill()
  for (const cli of children) if (cli.child.exitCode === null && cli.child.signalCode === null) cli.child.kill('SIGKILL')
  await Promise.all(children.map((cli) => cli.result))
  rmSync(dir, { recursive: true, force: true })
})

const followArgs = (url: string, out: string, extra: string[] = []) => [
  'export', '--base-url', url, '--exchange', 'bitstamp', ...PAIRS.flatMap((p) => ['--pair', p]), '--interval', '1m',
  '--start', START, '--follow', '--clock-rate', String(RATE), '--out', out, '--progress-interval', '1', ...extra,
]

const lines = (text: string, pattern: RegExp) => text.split('\n').filter((l) => pattern.test(l))

async function get(url: string): Promise<{ status: number; text: string }> {
  const res = await fetch(url)
  return { status: res.status, text: await res.text() }
}

describe('export --follow rides out outages', () => {
  test(
    'the service killed and restarted on the same port 12 s later: one line as the outage starts, one as it ends (its length, what was caught up), none per retry; /healthz 503 meanwhile with the reason, 200 after; SIGTERM exits 0; the output equals the service, no gap, no duplicate',
    async () => {
      const port = await freePort()
      let serve = await startServe(port, NOW, RATE)
      services.push(serve)
      const out = join(dir, 'outage.sqlite')
      const cli = startCli(followArgs(serve.url, out, ['--metrics-port', '0']), { MARKET_CANDLES_API_KEY: KEY }, 180_000)
      children.push(cli)
      await waitFor(() => /following 2 series: newest candle/.test(cli.output().stderr) || cli.child.exitCode !== null, 30_000, 'the follow at the edge')
      const metricsUrl = /metrics on (http:\/\/127\.0\.0\.1:\d+\/metrics)/.exec(cli.output().stderr)?.[1]
      expect(metricsUrl, cli.output().stderr).toBeDefined()
      const healthUrl = metricsUrl!.replace(/\/metrics$/, '/healthz')
      expect((await get(healthUrl)).status).toBe(200)

      const restarted = killAndRestart(serve, port, RATE, 12_000)
      await waitFor(() => /export: outage: /.test(cli.output().stderr), 20_000, 'the outage line')
      const during = await get(healthUrl)
      expect(during.status).toBe(503)
      expect(during.text).toMatch(/^unhealthy: outage: the service fails \(connection error\) for /)
      serve = await restarted
      services.push(serve)
      await waitFor(() => /export: outage over: /.test(cli.output().stderr) || cli.child.exitCode !== null, 40_000, 'the end of the outage')
      expect(cli.child.exitCode, cli.output().stderr).toBeNull()
      const after = await get(healthUrl)
      expect(after.status, after.text).toBe(200)
      expect(after.text).toMatch(/^ok: (2 series live|1 series live, 1 catching up)/)
      const metrics = (await get(metricsUrl!)).text
      const outageSeconds = Number(/^market_candles_outage_seconds_total (\S+)$/m.exec(metrics)?.[1])
      expect(outageSeconds).toBeGreaterThan(10)
      expect(metrics).toMatch(/^market_candles_outages_total 1$/m)
      expect(metrics).toMatch(/^market_candles_requests_total\{status="error"\} [1-9]/m)

      cli.child.kill('SIGTERM')
      const result = await cli.result
      expect(result.code, result.stderr).toBe(0)
      expect(result.stderr).toContain('Stopped (SIGTERM) after')
      // Exactly two lines about the outage, whatever the number of retries.
      expect(lines(result.stderr, /export: outage: /)).toHaveLength(1)
      expect(lines(result.stderr, /export: outage over: /)).toHaveLength(1)
      expect(lines(result.stderr, /export: outage over: /)[0]).toMatch(/the service failed for (1\d|2\d)\.\d s \(\S+ to \S+\); caught up \d+ candles of 2 series; following again\.$/)
      expect(result.stderr).not.toMatch(/retrying GET|cannot reach the service/)
      expect(result.stderr).not.toContain(KEY)
      expect(await outputDifferences(serve.url, KEY, sqliteRows(out, 'exchange_candles'), PAIRS, START)).toEqual([])
    },
    150_000,
  )
})

describe('--metrics-port', () => {
  test(
    'serves market_candles_* metrics with series labelled exchange/base/quote/interval, and no key or password in any label or value',
    async () => {
      const serve = await startServe(await freePort(), NOW, RATE)
      services.push(serve)
      const keyFile = join(dir, 'key.txt')
      const { writeFileSync } = await import('node:fs')
      writeFileSync(keyFile, `${KEY}\n`)
      const out = join(dir, 'metrics.sqlite')
      const cli = startCli(followArgs(serve.url, out, ['--metrics-port', '0', '--api-key-file', keyFile]), {}, 90_000)
      children.push(cli)
      await waitFor(() => /following 2 series: newest candle/.test(cli.output().stderr) || cli.child.exitCode !== null, 30_000, 'the follow at the edge')
      const metricsUrl = /metrics on (http:\/\/127\.0\.0\.1:\d+\/metrics)/.exec(cli.output().stderr)![1]!
      const text = (await get(metricsUrl)).text
      for (const name of ['candles_written_total', 'follow_lag_seconds', 'requests_total', 'retries_total', 'outage_seconds_total', 'rate_limit_wait_seconds_total', 'healthy']) {
        expect(text, name).toMatch(new RegExp(`^# TYPE market_candles_${name} `, 'm'))
      }
      for (const series of ['bitstamp/BTC/USD/1m', 'bitstamp/ETH/USD/1m']) {
        expect(text).toMatch(new RegExp(`^market_candles_candles_written_total\\{series="${series}"\\} [1-9]\\d*$`, 'm'))
        const lag = Number(new RegExp(`^market_candles_follow_lag_seconds\\{series="${series}"\\} (\\S+)$`, 'm').exec(text)?.[1])
        // A 1m series at the edge: its newest candle closed less than two minutes ago (service time).
        expect(lag).toBeGreaterThanOrEqual(0)
        expect(lag).toBeLessThan(180)
      }
      expect(text).toMatch(/^market_candles_requests_total\{status="200"\} [1-9]/m)
      expect(text).not.toContain(KEY)
      expect(text).not.toContain(keyFile)
      expect((await get(metricsUrl.replace('/metrics', '/nope'))).status).toBe(404)
      cli.child.kill('SIGTERM')
      expect((await cli.result).code).toBe(0)
    },
    90_000,
  )

  test('--metrics-port must be a port and --metrics-host goes with it: clear usage errors (exit 2)', async () => {
    // In process (the run the CLI makes): the command line's usage errors are test/cli/messages.test's.
    const base = ['--mock', '--exchange', 'bitstamp', '--pair', 'BTC/USD', '--interval', '1m', '--follow', '--out', join(dir, 'x.csv')]
    const bad = await exportInProcess([...base, '--metrics-port', '70000'], {})
    expect(bad.code).toBe(2)
    expect(bad.stderr).toContain("--metrics-port must be a port number from 0 to 65535 (0: a free one), got '70000'")
    const alone = await exportInProcess([...base, '--metrics-host', '0.0.0.0'], {})
    expect(alone.code).toBe(2)
    expect(alone.stderr).toContain('--metrics-host applies to --metrics-port only')
  })
})

describe('SIGTERM', () => {
  test('stops an export without --follow after the page in hand with exit 143 and the resume hint; SIGINT keeps 130', async () => {
    for (const [signal, code] of [['SIGTERM', 143], ['SIGINT', 130]] as const) {
      const out = join(dir, `history-${signal}.csv`)
      const cli = startCli(['export', '--mock', '--exchange', 'bitstamp', '--pair', 'BTC/USD', '--interval', '1m', '--start', '2020-01-01', '--out', out, '--progress-interval', '0.1'], {}, 60_000)
      children.push(cli)
      await waitFor(() => /\d+ pages/.test(cli.output().stderr) || cli.child.exitCode !== null, 30_000, 'a page written')
      cli.child.kill(signal)
      const r = await cli.result
      expect(r.code, r.stderr).toBe(code)
      expect(r.stderr).toContain('Run the same command again to continue')
    }
  }, 90_000)
})
