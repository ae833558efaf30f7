import { parseArgs } from 'node:util'
import { UsageError } from '../usage-error.js'
import { usageErrorOf, type OptionTable } from '../parse-error.js'
import { CONTRACT_URL } from './rule.js'
import { KNOWN_PLANS, RULES } from './rules/index.js'

/** The options of `market-candles conformance`. */
export interface ConformanceArgs {
  baseUrl: string
  apiKeyFile: string | undefined
  /** `--key-file PLAN=FILE`, in the order given. */
  keyFiles: Array<{ plan: string; file: string }>
  junit: string | undefined
  json: string | undefined
  maxRequests: number
  /** `--rate N`: at most N requests in any second, every request of the run; undefined when not given. */
  rate: number | undefined
  timeoutMs: number
  /** Opt-in rules asked for with `--include`. */
  include: string[]
  /** `--only ID`: run just these rules. */
  only: string[]
  /** `--reference`: a difference from the reference's decisions (D1-D12) fails too, for a copy of the reference. */
  reference: boolean
  help: boolean
}

export const DEFAULT_MAX_REQUESTS = 600
export const MAX_RATE = 100

const OPT_IN = RULES.filter((r) => r.optIn).map((r) => r.id)

export const CONFORMANCE_USAGE = `Usage: market-candles conformance --base-url URL [options]

Checks a deployment of the candle service against the contract (${CONTRACT_URL}), rule by rule,
over plain HTTP. Read-only, paced under the rate limit, within a request budget. Each check names its
source: a statement of interface.md (broken: a failure) or a decision of the reference (filled
another way: a difference from the reference, listed but not failed unless --reference).

Options:
  --base-url URL         the deployment, e.g. https://candles.example.com (default: MARKET_CANDLES_BASE_URL)
  --api-key-file FILE    the key for the candle rules (default: MARKET_CANDLES_API_KEY); the key
                         never appears in the output or the reports
  --key-file PLAN=FILE   a key of plan PLAN (${[...KNOWN_PLANS.keys()].join(', ')}) for the plan rules; repeat per plan
  --junit FILE           also write a JUnit XML report
  --json FILE            also write a JSON report
  --max-requests N       the request budget (default ${DEFAULT_MAX_REQUESTS}); rules left when it is used up are skipped
  --rate N               at most N requests in any second, every request counted or not, 1 to ${MAX_RATE}
                         (for a gateway that limits per client); without it: 8 candle calls and 20
                         catalog calls a second. Candle calls never exceed 9 a second (the contract allows 10)
  --timeout MS           time limit of one request (default 15000)
  --include RULE         run an opt-in rule too: ${OPT_IN.join(', ')} (a burst that causes 429s)
  --only RULE            run only this rule (repeatable)
  --reference            check a copy of the reference service: differences from its decisions
                         (decisions.md D1-D12) fail too
  -h, --help             show this help

Rules: ${RULES.map((r) => r.id).join(', ')}.
Exit codes: 0 no rule that ran failed (differences from the reference do not fail without --reference),
1 a rule failed (or the service did not answer), 2 bad usage.`

function integer(name: string, text: string, min: number, max: number): number {
  if (!/^\d+$/.test(text) || Number(text) < min || Number(text) > max) throw new UsageError(`--${name} must be an integer from ${min} to ${max}, got '${text}'`)
  return Number(text)
}

/** The base URL without a trailing slash; refuses credentials in it (they would be printed). */
function baseUrlOf(text: string): string {
  let url: URL
  try {
    url = new URL(text)
  } catch {
    throw new UsageError(`--base-url must be an http or https URL, got '${text}'`)
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') throw new UsageError(`--base-url must be an http or https URL, got '${url.protocol}'`)
  if (url.username !== '' || url.password !== '') throw new UsageError('--base-url must not carry credentials: the URL is printed in reports; give the key with --api-key-file')
  if (url.search !== '' || url.hash !== '') throw new UsageError('--base-url takes no query or fragment')
  return `${url.origin}${url.pathname.replace(/\/+$/, '')}`
}

const OPTIONS = {
  'base-url': { type: 'string' },
  'api-key-file': { type: 'string' },
  'key-file': { type: 'string', multiple: true },
  junit: { type: 'string' },
  json: { type: 'string' },
  'max-requests': { type: 'string' },
  rate: { type: 'string' },
  timeout: { type: 'string' },
  include: { type: 'string', multiple: true },
  only: { type: 'string', multiple: true },
  reference: { type: 'boolean', default: false },
  help: { type: 'boolean', short: 'h', default: false },
} as const satisfies OptionTable

/** Parses the arguments after `conformance`. */
export function parseConformanceArgs(argv: readonly string[], env: NodeJS.ProcessEnv = {}): ConformanceArgs {
  let values
  try {
    ;({ values } = parseArgs({
      args: [...argv],
      strict: true,
      allowPositionals: false,
      options: OPTIONS,
    }))
  } catch (error) {
    throw usageErrorOf(error, OPTIONS)
  }
  const help = values.help
  if (help) return { baseUrl: '', apiKeyFile: undefined, keyFiles: [], junit: undefined, json: undefined, maxRequests: 0, rate: undefined, timeoutMs: 0, include: [], only: [], reference: false, help }
  const baseUrl = values['base-url'] ?? (env.MARKET_CANDLES_BASE_URL?.trim() || undefined)
  if (baseUrl === undefined) throw new UsageError('--base-url (or MARKET_CANDLES_BASE_URL) is required: the deployment to check')
  const keyFiles = (values['key-file'] ?? []).map((spec) => {
    const match = /^([^=]+)=(.+)$/.exec(spec)
    if (!match) throw new UsageError(`--key-file takes PLAN=FILE, got '${spec}'`)
    const [, plan, file] = match as unknown as [string, string, string]
    if (!KNOWN_PLANS.has(plan)) throw new UsageError(`--key-file: unknown plan '${plan}' (the contract's plans: ${[...KNOWN_PLANS.keys()].join(', ')})`)
    return { plan, file }
  })
  const plans = keyFiles.map((k) => k.plan)
  const twice = plans.find((p, i) => plans.indexOf(p) !== i)
  if (twice) throw new UsageError(`--key-file ${twice}=... is given twice`)
  const include = values.include ?? []
  for (const id of include) if (!OPT_IN.includes(id)) throw new UsageError(`--include: unknown opt-in rule '${id}' (opt-in rules: ${OPT_IN.join(', ')})`)
  const only = values.only ?? []
  for (const id of only) if (!RULES.some((r) => r.id === id)) throw new UsageError(`--only: unknown rule '${id}'`)
  for (const name of ['junit', 'json', 'api-key-file'] as const) if (values[name] !== undefined && values[name].trim() === '') throw new UsageError(`--${name} needs a file name`)
  return {
    baseUrl: baseUrlOf(baseUrl),
    apiKeyFile: values['api-key-file'],
    keyFiles,
    junit: values.junit,
    json: values.json,
    maxRequests: values['max-requests'] === undefined ? DEFAULT_MAX_REQUESTS : integer('max-requests', values['max-requests'], 1, 100_000),
    rate: values.rate === undefined ? undefined : integer('rate', values.rate, 1, MAX_RATE),
    timeoutMs: values.timeout === undefined ? 15_000 : integer('timeout', values.timeout, 100, 600_000),
    include,
    only,
    reference: values.reference,
    help,
  }
}
