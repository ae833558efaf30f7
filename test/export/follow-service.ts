/*
 * `market-candles serve` with a running clock on a fixed port, for follow tests that kill the
 * service and start it again on the same port with its clock where it would have been; and the
 * check that an output holds exactly the service's candles (fetched page by page), no gap, no duplicate.
 */
import { expect } from 'vitest'
import { createClient } from '../../src/index.js'
import { startCli, waitFor, type RunningCli } from './run-cli.js'

/** A `serve` child process. */
export interface Serve {
  readonly url: string
  readonly cli: RunningCli
  /** The service's clock (epoch ms), read over HTTP. */
  clock(): Promise<number>
  /** SIGKILL, as a crash; resolves once it has exited. */
  kill(): Promise<void>
}

/** Starts `serve --port PORT --now NOW --clock-rate RATE` (extra flags after). */
export async function startServe(port: number, now: number, rate: number, extra: string[] = [], timeoutMs = 300_000): Promise<Serve> {
  const cli = startCli(['serve', '--port', String(port), '--now', new Date(now).toISOString(), '--clock-rate', String(rate), ...extra], {}, timeoutMs)
  await waitFor(() => cli.output().stdout.includes('\n') || cli.child.exitCode !== null, 20_000, 'serve to listen')
  const line = cli.output().stdout.split('\n')[0]!
  if (!line.startsWith('listening on ')) throw new Error(`serve did not start: ${cli.output().stderr}`)
  const url = line.replace('listening on ', '')
  return {
    url,
    cli,
    async clock() {
      const body = (await (await fetch(`${url}/_mock/clock`)).json()) as { now: string }
      return Date.parse(body.now)
    },
    async kill() {
      if (cli.child.exitCode === null && cli.child.signalCode === null) cli.child.kill('SIGKILL')
      await cli.result
    },
  }
}

/**
 * Kills the service, waits `downMs`, and starts it again on the same port with its clock where it
 * would be had it run on (plus `jumpMs`, a clock jump); `extra` as at the start.
 */
export async function killAndRestart(serve: Serve, port: number, rate: number, downMs: number, extra: string[] = [], jumpMs = 0): Promise<Serve> {
  const clock = await serve.clock()
  const readAt = Date.now()
  await serve.kill()
  await new Promise((r) => setTimeout(r, Math.max(0, readAt + downMs - Date.now())))
  return startServe(port, clock + (Date.now() - readAt) * rate + jumpMs, rate, extra)
}

/** A candle row's identity and prices, as stored and as served. */
export const rowKey = (r: Record<string, unknown>) => `${r.exchange}|${r.base}/${r.quote}|${r.close_ts}|${Number(r.open)}|${Number(r.close)}|${Number(r.base_volume)}`

/**
 * The output holds exactly the service's candles of each pair from `start` to its newest stored
 * candle: fetched page by page (a plain page walk), compared row for row, so a gap or a duplicate
 * fails with the rows that differ.
 */
export async function expectOutputEqualsService(url: string, apiKey: string, rows: readonly Record<string, unknown>[], pairs: readonly string[], start: string, note = ''): Promise<void> {
  const client = createClient({ apiKey, baseUrl: url })
  for (const pair of pairs) {
    const [base, quote] = pair.split('/') as [string, string]
    const stored = rows.filter((r) => r.base === base && r.quote === quote)
    expect(stored.length, `${pair}: no candle stored ${note}`).toBeGreaterThan(0)
    const keys = stored.map(rowKey)
    expect(new Set(keys).size, `${pair}: duplicates ${note}`).toBe(keys.length)
    const newest = stored.map((r) => String(r.close_ts)).sort().at(-1)!
    const truth: string[] = []
    for await (const page of client.exchangeOhlcvPages({ exchange: 'bitstamp', interval: '1m', base, quote, start, end: newest })) truth.push(...page.candles.map((c) => rowKey({ ...c, exchange: 'bitstamp', base, quote })))
    expect(keys.sort(), `${pair}: the output differs from the service ${note}`).toEqual(truth.sort())
  }
}
