import { parseArgs } from 'node:util'
import { parseDateTime } from '../../src/contract/index.js'
import { DEFAULT_JOURNAL_SIZE } from '../../mocks/core/journal/journal.js'
import { UsageError } from '../usage-error.js'
import { usageErrorOf, type OptionTable } from '../parse-error.js'
import { MAX_CLOCK_RATE } from '../../mocks/core/state/clock.js'
import { MAX_PUBLISH_DELAY_MS } from '../../mocks/core/state/service-time.js'
import { CONTROL_TOKEN_ENV } from '../../mocks/server/control-token.js'
import { parseVariantText } from '../../mocks/core/variant/parse-variant-text.js'
import type { ResolvedVariant } from '../../mocks/core/variant/service-variant.js'

/** The options of `market-candles serve`. */
export interface ServeArgs {
  port: number
  host: string
  now: string | undefined
  latency: number
  rateLimit: boolean
  /** A JSON file with the dataset to serve instead of the default one, or an export's file or Parquet directory. */
  data: string | undefined
  /** Clock ms per wall ms; undefined: fixed with --now, else the system clock. */
  clockRate: number | undefined
  /** How long after its close a candle becomes visible. */
  publishDelay: number
  /** Requests the journal keeps (per session); 0 switches it off. */
  journalSize: number
  /** The control plane's bearer token (`--control-token`, else the environment's MARKET_CANDLES_CONTROL_TOKEN); never printed. */
  controlToken: string | undefined
  /** How the service fills interface.md's gaps (`--variant`); undefined: the reference's own choices. */
  variant: ResolvedVariant | undefined
  help: boolean
}

export const DEFAULT_PORT = 4010

export const SERVE_USAGE = `Usage: market-candles serve [options]

Serves the market-candles reference service on node:http.

Options:
  --port N          port to listen on; 0 picks a free one (default ${DEFAULT_PORT})
  --host H          address to bind (default 127.0.0.1)
  --now ISO         fix the service clock, e.g. 2025-01-01T00:00:00Z (default: system clock)
  --clock-rate N    run the clock at N times wall speed, from --now (or the system time):
                    60 closes a 1m candle every second, 0 fixes it (default: fixed with --now,
                    else 1). POST /_mock/clock {"rate": N} changes it while running
  --publish-delay MS  a candle becomes visible MS milliseconds after its close, as a real feed's
                    ingestion delay makes it (service clock; default 0)
  --latency MS      delay every response by MS milliseconds (default 0)
  --no-rate-limit   switch off the 10 requests/second limit (for throughput benchmarks)
  --journal-size N  requests the journal keeps per session, newest first (default 1000;
                    0 switches it off)
  --data FILE       serve the dataset in FILE, a JSON object { data, plans, accounts, keys }
                    (each optional; the shape createMockService takes), checked at start;
                    or replay what market-candles export wrote (.sqlite, .db, .csv, .jsonl, a
                    Parquet dataset's directory): those candles alone, their exchanges and assets
                    made from them, the demo keys
  --control-token T lock the control plane: every /_mock request (sessions' too) must send
                    'Authorization: Bearer T', else 401. Default: the environment variable
                    MARKET_CANDLES_CONTROL_TOKEN (preferred: argv is visible to other users in ps);
                    without either, /_mock is open to whoever reaches the server
  --variant V       fill the gaps of interface.md as another common deployment does: a preset
                    (python-stack, timestamps-offset, timestamps-micro, timestamps-millis,
                    missing-key-403, errors-pydantic-v1, errors-detail-string, errors-text,
                    rate-limit-retry-after, rate-limit-none, null-fields-omitted, extra-fields,
                    reference) or field=value pairs, e.g.
                    timestamps=+00:00,missing-key=403,error-bodies=pydantic-v1,
                    rate-limit-headers=retry-after,null-fields=omit,extra-fields
                    (default: the reference's own choices). PUT /_mock/variant changes it while running
  -h, --help        show this help

The first line on stdout is "listening on http://HOST:PORT".
--host on an address other than loopback without a control token prints a warning on stderr:
anyone who reaches the server can change its data, keys and faults.`

function integer(name: string, text: string, max: number): number {
  if (!/^\d+$/.test(text) || Number(text) > max) throw new UsageError(`--${name} must be an integer from 0 to ${max}, got '${text}'`)
  return Number(text)
}

function clockRate(text: string): number {
  const rate = Number(text)
  if (!/^\d+(\.\d+)?$/.test(text) || rate > MAX_CLOCK_RATE) throw new UsageError(`--clock-rate must be a number from 0 to ${MAX_CLOCK_RATE}, got '${text}'`)
  return rate
}

function variantOf(text: string): ResolvedVariant {
  try {
    return parseVariantText(text)
  } catch (error) {
    throw new UsageError(`--variant: ${(error as Error).message}`)
  }
}

const VALUED = new Set(['--port', '--host', '--now', '--latency', '--data', '--clock-rate', '--publish-delay', '--journal-size', '--control-token', '--variant'])

/**
 * `--latency -5` as `--latency=-5`: parseArgs refuses a value that starts with a dash with its own
 * text; joined, the value reaches the range check and its message.
 */
function joinNegativeValues(argv: string[]): string[] {
  const out: string[] = []
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i]!
    const next = argv[i + 1]
    if (VALUED.has(arg) && next !== undefined && /^-\d/.test(next)) {
      out.push(`${arg}=${next}`)
      i++
    } else out.push(arg)
  }
  return out
}

const OPTIONS = {
  port: { type: 'string' },
  host: { type: 'string' },
  now: { type: 'string' },
  latency: { type: 'string' },
  data: { type: 'string' },
  'clock-rate': { type: 'string' },
  'publish-delay': { type: 'string' },
  'journal-size': { type: 'string' },
  'control-token': { type: 'string' },
  variant: { type: 'string' },
  'rate-limit': { type: 'boolean', default: true },
  help: { type: 'boolean', short: 'h', default: false },
} as const satisfies OptionTable

/** Parses the arguments after `serve`. */
export function parseServeArgs(argv: string[], env: Readonly<Record<string, string | undefined>> = process.env): ServeArgs {
  let values
  try {
    ;({ values } = parseArgs({
      args: joinNegativeValues(argv),
      strict: true,
      allowPositionals: false,
      allowNegative: true,
      options: OPTIONS,
    }))
  } catch (error) {
    throw usageErrorOf(error, OPTIONS)
  }
  if (values.now !== undefined && !parseDateTime(values.now).ok) {
    throw new UsageError(`--now must be an ISO 8601 datetime, got '${values.now}'`)
  }
  if (values.host !== undefined && values.host.trim() === '') throw new UsageError('--host cannot be empty')
  if (values.data !== undefined && values.data.trim() === '') throw new UsageError('--data needs a file name')
  // The messages name the flag or variable, never the value: it is a secret.
  if (values['control-token'] !== undefined && values['control-token'].trim() === '') throw new UsageError('--control-token cannot be empty')
  const envToken = env[CONTROL_TOKEN_ENV]
  if (values['control-token'] === undefined && envToken !== undefined && envToken.trim() === '') throw new UsageError(`${CONTROL_TOKEN_ENV} is set but empty: unset it, or give it a token`)
  return {
    port: values.port === undefined ? DEFAULT_PORT : integer('port', values.port, 65535),
    host: values.host ?? '127.0.0.1',
    now: values.now,
    latency: values.latency === undefined ? 0 : integer('latency', values.latency, 600_000),
    rateLimit: values['rate-limit'],
    data: values.data,
    clockRate: values['clock-rate'] === undefined ? undefined : clockRate(values['clock-rate']),
    publishDelay: values['publish-delay'] === undefined ? 0 : integer('publish-delay', values['publish-delay'], MAX_PUBLISH_DELAY_MS),
    journalSize: values['journal-size'] === undefined ? DEFAULT_JOURNAL_SIZE : integer('journal-size', values['journal-size'], 1_000_000),
    controlToken: values['control-token'] ?? envToken,
    variant: values.variant === undefined ? undefined : variantOf(values.variant),
    help: values.help,
  }
}
