/*
 * `market-candles serve` with a running clock on a fixed port, for follow tests that kill the
 * service and start it again on the same port with its clock where it would have been; and the
 * check that an output holds exactly the service's candles (fetched page by page), no gap, no duplicate.
 */
import { createClient } from '../../../src/index.js'
import { startCli, waitFor, type RunningCli } from '../run-cli.js'

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
 * What differs between an output and the service's candles of each pair from `start` to its
 * newest stored candle, fetched page by page (a plain page walk): a pair with nothing stored,
 * duplicates, rows missing (a gap) or rows the service does not have. Empty when they are equal.
 */
export async function outputDifferences(url: string, apiKey: string, rows: readonly Record<string, unknown>[], pairs: readonly string[], start: string): Promise<string[]> {
  const client = createClient({ apiKey, baseUrl: url })
  const problems: string[] = []
  for (const pair of pairs) {
    const [base, quote] = pair.split('/') as [string, string]
    const stored = rows.filter((r) => r.base === base && r.quote === quote)
    if (stored.length === 0) {
      problems.push(`${pair}: no candle stored`)
      continue
    }
    const keys = stored.map(rowKey)
    const seen = new Set<string>()
    for (const key of keys) {
      if (seen.has(key)) problems.push(`${pair}: duplicate ${key}`)
      seen.add(key)
    }
    const newest = stored.map((r) => String(r.close_ts)).sort().at(-1)!
    const truth = new Set<string>()
    for await (const page of client.exchangeOhlcvPages({ exchange: 'bitstamp', interval: '1m', base, quote, start, end: newest })) {
      for (const c of page.candles) truth.add(rowKey({ ...c, exchange: 'bitstamp', base, quote }))
    }
    for (const key of truth) if (!seen.has(key)) problems.push(`${pair}: missing ${key}`)
    for (const key of seen) if (!truth.has(key)) problems.push(`${pair}: not served ${key}`)
  }
  return problems
}
