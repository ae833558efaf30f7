import type { Writable } from 'node:stream'
import { parseArgs } from 'node:util'
import { parseFlagTime } from './dates.js'
import { parseResample } from './resample-flag.js'
import { UsageError } from '../../usage-error.js'
import { usageErrorOf, type OptionTable } from '../../parse-error.js'
import { withoutPassword } from './without-password.js'
import { checkRedisUrl, REDIS_ACCOUNT_ENV, REDIS_URL_ENV } from '../limits/redis-limit.js'
import { parseShard, type Shard } from '../limits/shard.js'
import { parsePartRows } from './part-rows-flag.js'
import type { ExportFormat } from './export-format.js'

/** The parsed options of `market-candles export`. */
export interface ExportArgs {
  /** `exchange` for one exchange's raw candles, `aggregated` for the combined series. */
  kind: 'exchange' | 'aggregated'
  exchange: string | undefined
  method: string | undefined
  /** `BASE/QUOTE` pairs; empty with `allPairs`. */
  pairs: Array<{ base: string; quote: string }>
  allPairs: boolean
  interval: string
  /** Epoch ms, or undefined for the first candle of each series. */
  start: number | undefined
  end: number | undefined
  /** A path, `-` for stdout, or a postgres:// URL. */
  out: string
  format: ExportFormat
  /** The PostgreSQL schema of the tables (`--pg-schema`); undefined for `public`. */
  pgSchema: string | undefined
  /** `--part-rows`: rows per Parquet part file; undefined for the default, 100,000. */
  partRows: number | undefined
  apiKeyFile: string | undefined
  baseUrl: string | undefined
  mock: boolean
  quiet: boolean
  /** Seconds between progress lines when stderr is not a terminal. */
  progressInterval: number
  /** Candle requests per second the client allows itself; false for no client-side limit. */
  rateLimit: number | false
  /** `--resample`: the interval stored, built from the exported candles; undefined stores them as they are. */
  resample: string | undefined
  /** `--report`: where the per-series coverage is written as JSON. */
  report: string | undefined
  /** `--redis URL`: the rate limit shared with other export processes (else MARKET_CANDLES_REDIS_URL). */
  redis: string | undefined
  /** `--shard I/N`: this process's fixed share of the series. */
  shard: Shard | undefined
  help: boolean
  /** After the history, keep the output current with each new candle (see follow.ts). */
  follow: boolean
  /** With `follow`: service clock ms per wall ms (the embedded one with `mock`); undefined: 1. */
  clockRate: number | undefined
  /** `--metrics-port`: serve /metrics and /healthz on this port (0: a free one); undefined: no server. */
  metricsPort: number | undefined
  /** `--metrics-host`: the address the metrics server binds. @default '127.0.0.1' */
  metricsHost: string
}

export const EXPORT_USAGE = `Usage: market-candles export [options]

Downloads full candle histories into SQLite, CSV, JSON Lines or Parquet. Running the same command again
continues after the last stored candle of each series: nothing is fetched twice.

  market-candles export --exchange bitstamp --pair BTC/USD --interval 1m --start 2024-01-01 --out candles.sqlite
  market-candles export --aggregated --pair BTC/USD --pair ETH/USD --interval 1h --out agg.csv
  market-candles export --exchange bitstamp --all-pairs --interval 1d --out - --format jsonl
  market-candles export --exchange bitstamp --pair BTC/USD --interval 1m --start 2026-01-01 --follow --out live.sqlite

What to export:
  --exchange NAME        one exchange's raw candles (exchange_ohlcv)
  --aggregated           the cross-exchange combined series instead (aggregated_ohlcv)
  --method NAME          aggregation method, with --aggregated (default: the service's, omm_vwap_v1)
  --pair BASE/QUOTE      a pair; repeat for several
  --all-pairs            every pair the catalog lists for the exchange (or the aggregate) and interval
  --interval I           1m, 1h or 1d
  --start ISO            first close time (default: the first candle the catalog lists)
  --end ISO              last close time (default: the latest candle)
  --follow               after the history, keep the output current: one page written as each new
                         candle closes, until Ctrl-C (or --end); the same command resumes
  --clock-rate N         with --follow: the service's clock runs N times wall speed: the embedded
                         one with --mock starts at the system time and runs so; a remote service's
                         speed is learnt from its Date headers (N is where that starts; default 1)

Where to:
  --out FILE             .sqlite or .db, .csv, .jsonl; '-' writes CSV or JSON Lines to stdout
  --out postgres://USER@HOST:PORT/DB
                         a PostgreSQL database (postgresql:// too); what the URL leaves out comes
                         from PGHOST, PGPORT, PGUSER, PGPASSWORD, PGDATABASE (--out postgres:// alone:
                         all of it); the password is best kept in PGPASSWORD or ~/.pgpass
  --pg-schema NAME       the schema of the PostgreSQL tables (default: public)
  --format F             sqlite, csv, jsonl, parquet or postgres (default: from --out);
                         parquet writes a dataset into the directory --out, one folder per series
  --part-rows N          with parquet: rows per part file, one row group each, 1,000 to 1,000,000
                         (default 100,000); a part is held in memory until it is written, up to
                         about 300 bytes a row (1,000,000 rows: about 300 MB)
  --resample I           store candles resampled to I (5m, 15m, 4h, 1w, 1M...), a whole multiple of --interval
  --report FILE.json     also write each series' coverage (stored, expected, gaps) as JSON

Service:
                         the API key comes from MARKET_CANDLES_API_KEY, or:
  --api-key-file FILE    a file holding the key (one line)
  --base-url URL         the service (default: MARKET_CANDLES_BASE_URL)
  --mock                 run against the embedded reference service with a demo key
  --rate-limit N|off     candle requests per second to stay under (default 10, the service's limit);
                         off only for a service without a limit (serve --no-rate-limit)

Several processes, one account (https://github.com/market-candles/market-candles/blob/main/docs/workers.md):
  --redis URL            share the rate limit with every export process using the same Redis
                         (redis://:PASSWORD@host:6379; default: ${REDIS_URL_ENV}); needs ioredis.
                         Processes with different keys of one account set ${REDIS_ACCOUNT_ENV}
  --shard I/N            export only the I-th of N fixed shares of the series (--pair, --all-pairs):
                         N processes, each with its own --out, export the whole set together

Operating a follower (https://github.com/market-candles/market-candles/blob/main/docs/operating.md):
  --metrics-port PORT    serve Prometheus metrics at http://HOST:PORT/metrics and the health at
                         /healthz (200 while every series is live or catching up, 503 and why);
                         0 picks a free port (stderr says which)
  --metrics-host HOST    the address it binds (default 127.0.0.1; 0.0.0.0 for every interface)
                         SIGTERM stops after the page in hand: exit 0 with --follow, 143 without

Output:
  --quiet                no progress
  --progress-interval S  seconds between progress lines when stderr is not a terminal (default 5)
  -h, --help             show this help

Exit codes: 0 done (or a follow stopped by SIGTERM), 1 error (data written so far is kept), 2 bad
flags or an --interval the service does not offer, 130 interrupted (Ctrl-C), 143 stopped by SIGTERM
before done (without --follow), 141 stdout closed by its reader.`

const FORMATS: readonly ExportFormat[] = ['sqlite', 'csv', 'jsonl', 'parquet', 'postgres']

/** The format of an output path from its extension, if it has a known one. */
export function formatOfPath(path: string): ExportFormat | undefined {
  const lower = path.toLowerCase()
  if (/^postgres(ql)?:\/\//.test(lower)) return 'postgres'
  if (lower.endsWith('.sqlite') || lower.endsWith('.db') || lower.endsWith('.sqlite3')) return 'sqlite'
  if (lower.endsWith('.csv')) return 'csv'
  if (lower.endsWith('.jsonl') || lower.endsWith('.ndjson')) return 'jsonl'
  if (lower.endsWith('.parquet')) return 'parquet'
  return undefined
}

// Keys passed as flag values end up in shell history and in every user's `ps` listing.
const KEY_FLAG = /^--?api[-_]?key(=|$)/i

function parsePair(text: string): { base: string; quote: string } {
  const m = /^([^/\s]+)\/([^/\s]+)$/.exec(text.trim())
  if (!m) throw new UsageError(`--pair must be BASE/QUOTE, e.g. BTC/USD, got '${text}'`)
  return { base: m[1]!, quote: m[2]! }
}

// The largest useful rate: a 1d candle every 1.44 wall seconds; the reference service allows more.
const MAX_CLOCK_RATE = 60_000

function parseClockRate(text: string, follow: boolean): number {
  if (!follow) throw new UsageError('--clock-rate applies to --follow only')
  const rate = Number(text)
  if (!/^\d+(\.\d+)?$/.test(text) || !(rate > 0 && rate <= MAX_CLOCK_RATE)) {
    throw new UsageError(`--clock-rate must be a number above 0 and up to ${MAX_CLOCK_RATE} (60: a 1m candle every wall second), got '${text}'`)
  }
  return rate
}

function parseMetricsPort(text: string): number {
  const port = Number(text)
  if (!/^\d+$/.test(text) || port > 65535) throw new UsageError(`--metrics-port must be a port number from 0 to 65535 (0: a free one), got '${text}'`)
  return port
}

function parseMetricsHost(host: string | undefined, port: string | undefined): string {
  if (host === undefined) return '127.0.0.1'
  if (port === undefined) throw new UsageError('--metrics-host applies to --metrics-port only')
  if (host.trim() === '' || /[\s/@]/.test(host)) throw new UsageError(`--metrics-host must be a host name or an address, got '${host}'`)
  return host
}

const OPTIONS = {
  exchange: { type: 'string' },
  aggregated: { type: 'boolean', default: false },
  method: { type: 'string' },
  pair: { type: 'string', multiple: true },
  'all-pairs': { type: 'boolean', default: false },
  interval: { type: 'string' },
  start: { type: 'string' },
  end: { type: 'string' },
  out: { type: 'string', short: 'o' },
  format: { type: 'string' },
  'pg-schema': { type: 'string' },
  'part-rows': { type: 'string' },
  'api-key-file': { type: 'string' },
  'base-url': { type: 'string' },
  mock: { type: 'boolean', default: false },
  quiet: { type: 'boolean', short: 'q', default: false },
  'progress-interval': { type: 'string' },
  'rate-limit': { type: 'string' },
  resample: { type: 'string' },
  report: { type: 'string' },
  redis: { type: 'string' },
  shard: { type: 'string' },
  help: { type: 'boolean', short: 'h', default: false },
  follow: { type: 'boolean', default: false },
  'clock-rate': { type: 'string' },
  'metrics-port': { type: 'string' },
  'metrics-host': { type: 'string' },
} as const satisfies OptionTable

/** Parses the arguments after `export`; throws {@link UsageError} for any mistake. */
export function parseExportArgs(argv: readonly string[]): ExportArgs {
  const keyFlag = argv.find((a) => KEY_FLAG.test(a))
  if (keyFlag !== undefined) {
    throw new UsageError(
      'the API key is never taken from a flag: a key on the command line is visible to every user of this machine (ps) and stays in your shell history. Set MARKET_CANDLES_API_KEY, or put the key in a file and pass --api-key-file FILE',
    )
  }
  let parsed
  try {
    parsed = parseArgs({
      args: [...argv],
      strict: true,
      allowPositionals: false,
      options: OPTIONS,
    })
  } catch (error) {
    throw usageErrorOf(error, OPTIONS)
  }
  const v = parsed.values
  const base = {
    apiKeyFile: v['api-key-file'],
    baseUrl: v['base-url'],
    mock: v.mock,
    quiet: v.quiet,
    help: v.help,
    follow: v.follow,
    clockRate: v['clock-rate'] === undefined ? undefined : parseClockRate(v['clock-rate'], v.follow),
    metricsPort: v['metrics-port'] === undefined ? undefined : parseMetricsPort(v['metrics-port']),
    metricsHost: parseMetricsHost(v['metrics-host'], v['metrics-port']),
  }
  if (v.help) {
    return { ...base, kind: 'exchange', exchange: undefined, method: undefined, pairs: [], allPairs: false, interval: '', start: undefined, end: undefined, out: '', format: 'csv', pgSchema: undefined, partRows: undefined, progressInterval: 5, rateLimit: 10, resample: undefined, report: undefined, redis: undefined, shard: undefined }
  }
  const nonEmpty = (name: string, value: string | undefined) => {
    if (value !== undefined && value.trim() === '') throw new UsageError(`--${name} cannot be empty`)
    return value
  }
  const kind = v.aggregated ? 'aggregated' : 'exchange'
  const exchange = nonEmpty('exchange', v.exchange)
  const method = nonEmpty('method', v.method)
  if (kind === 'exchange' && exchange === undefined) throw new UsageError('give --exchange NAME, or --aggregated for the combined series')
  if (kind === 'aggregated' && exchange !== undefined) throw new UsageError('--exchange and --aggregated exclude each other: aggregated candles combine every exchange')
  if (kind === 'exchange' && method !== undefined) throw new UsageError('--method applies to --aggregated only')
  const pairs = (v.pair ?? []).map(parsePair)
  if (pairs.length === 0 && !v['all-pairs']) throw new UsageError('give --pair BASE/QUOTE (repeatable) or --all-pairs')
  if (pairs.length > 0 && v['all-pairs']) throw new UsageError('--pair and --all-pairs exclude each other')
  const seen = new Set<string>()
  for (const p of pairs) {
    const key = `${p.base}/${p.quote}`
    if (seen.has(key)) throw new UsageError(`--pair ${key} is given twice`)
    seen.add(key)
  }
  const interval = nonEmpty('interval', v.interval)
  if (interval === undefined) throw new UsageError('give --interval (1m, 1h or 1d)')
  const start = v.start === undefined ? undefined : parseFlagTime('start', v.start)
  const end = v.end === undefined ? undefined : parseFlagTime('end', v.end)
  if (start !== undefined && end !== undefined && start > end) throw new UsageError(`--start ${v.start} is after --end ${v.end}`)
  // --format postgres alone: the connection from PGHOST and friends.
  const out = nonEmpty('out', v.out) ?? (v.format === 'postgres' ? 'postgres://' : undefined)
  if (out === undefined) throw new UsageError("give --out FILE (.sqlite, .db, .csv, .jsonl), or --out - for stdout")
  if (v.format !== undefined && !FORMATS.includes(v.format as ExportFormat)) {
    throw new UsageError(`--format must be sqlite, csv, jsonl, parquet or postgres, got '${v.format}'`)
  }
  let format = v.format as ExportFormat | undefined
  if (out === '-') {
    if (format === undefined) throw new UsageError('--out - (stdout) needs --format csv or --format jsonl')
    if (format === 'sqlite') throw new UsageError('SQLite cannot be written to stdout: give --out FILE.sqlite')
    if (format === 'parquet') throw new UsageError('Parquet cannot be written to stdout: give --out DIR, the dataset\'s directory')
  }
  format ??= formatOfPath(out)
  if ((format === 'postgres') !== (formatOfPath(out) === 'postgres')) {
    throw new UsageError(format === 'postgres' ? '--format postgres needs --out postgres://USER@HOST/DB (or --out postgres:// with PGHOST and friends)' : `--out ${withoutPassword(out)} is a PostgreSQL URL: leave out --format, or give --format postgres`)
  }
  const pgSchema = nonEmpty('pg-schema', v['pg-schema'])
  if (pgSchema !== undefined && format !== 'postgres') throw new UsageError('--pg-schema applies to --out postgres:// only')
  if (format === undefined) throw new UsageError(`cannot tell the format of '${out}' from its extension: use .sqlite, .db, .csv, .jsonl or .parquet, or give --format`)
  const partRows = parsePartRows(v['part-rows'], format)
  if (v.mock && base.baseUrl !== undefined) throw new UsageError('--mock and --base-url exclude each other')
  nonEmpty('base-url', base.baseUrl)
  nonEmpty('api-key-file', base.apiKeyFile)
  let progressInterval = 5
  if (v['progress-interval'] !== undefined) {
    progressInterval = Number(v['progress-interval'])
    if (!/^\d+(\.\d+)?$/.test(v['progress-interval']) || !(progressInterval >= 0.1 && progressInterval <= 3600)) {
      throw new UsageError(`--progress-interval must be a number of seconds from 0.1 to 3600, got '${v['progress-interval']}'`)
    }
  }
  let rateLimit: number | false = 10
  const rate = v['rate-limit']
  if (rate !== undefined) {
    if (rate === 'off') rateLimit = false
    else if (/^\d+(\.\d+)?$/.test(rate) && Number(rate) > 0 && Number(rate) <= 1000) rateLimit = Number(rate)
    else throw new UsageError(`--rate-limit must be requests per second (up to 1000) or off, got '${rate}'`)
  }
  const resample = parseResample(v.resample, interval)
  // --follow writes one page per poll: a resampled bucket would be stored before it is whole, and a
  // Parquet part holds thousands of rows (--part-rows), so neither fits a page at a time.
  if (v.follow && resample !== undefined) throw new UsageError('--follow stores candles as they close: it cannot go with --resample (resample the stored candles instead, or follow at the interval you need)')
  if (v.follow && format === 'parquet') throw new UsageError('--follow writes a page as each candle closes; a Parquet dataset is written in large parts: follow into SQLite, CSV, JSON Lines or PostgreSQL')
  const report = nonEmpty('report', v.report)
  const redis = nonEmpty('redis', v.redis)
  if (redis !== undefined) checkRedisUrl(redis, '--redis')
  if (redis !== undefined && rateLimit === false) throw new UsageError('--redis shares a rate limit: it cannot go with --rate-limit off')
  if (redis !== undefined && !Number.isInteger(rateLimit)) throw new UsageError(`--rate-limit must be a whole number of requests per second with --redis, got '${rate}'`)
  const shard = v.shard === undefined ? undefined : parseShard(v.shard)
  return { ...base, kind, exchange, method, pairs, allPairs: v['all-pairs'], interval, start, end, out, format, pgSchema, partRows, progressInterval, rateLimit, resample, report, redis, shard }
}

/**
 * The arguments of `market-candles export`, or the exit code once what they ask for is printed: a
 * usage error with the usage on stderr (2), or the usage on stdout for `--help` (0).
 */
export function argsOrExit(argv: readonly string[], io: { stdout: Writable; stderr: Writable }): ExportArgs | number {
  let args: ExportArgs
  try {
    args = parseExportArgs(argv)
  } catch (error) {
    if (!(error instanceof UsageError)) throw error
    io.stderr.write(`market-candles export: ${error.message}\n\n${EXPORT_USAGE}\n`)
    return 2
  }
  if (!args.help) return args
  io.stdout.write(`${EXPORT_USAGE}\n`)
  return 0
}
