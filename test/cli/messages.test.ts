/*
 * The CLI's messages for a newcomer (issue 37 §3): an unknown flag names the closest flag, as the
 * SDK names the closest option; an interval the service does not offer is a usage mistake that says
 * what to do; --help lists every exit code; messages link to the published docs, not to paths of the
 * repository; counts take the right number.
 */
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { afterAll, describe, expect, test } from 'vitest'
import { parseConformanceArgs, CONFORMANCE_USAGE } from '../../cli/conformance/args.js'
import { textSummary } from '../../cli/conformance/reporters/index.js'
import { EXIT, EXIT_MEANINGS } from '../../cli/exit-codes.js'
import { EXPORT_USAGE, parseExportArgs } from '../../cli/export/flags/args.js'
import { followLine } from '../../cli/export/progress/follow-progress.js'
import { unofferedInterval } from '../../cli/export/flags/unoffered-interval.js'
import { plural } from '../../src/internal/plural.js'
import { SERVE_USAGE, parseServeArgs } from '../../cli/serve/args.js'
import { USAGE } from '../../cli/usage.js'
import { UsageError } from '../../cli/usage-error.js'
import { runCli } from '../export/run-cli.js'
import { cliInProcess } from './cli-in-process.js'

const ROOT = fileURLToPath(new URL('../..', import.meta.url))
const dir = mkdtempSync(join(tmpdir(), 'cli-messages-'))
afterAll(() => rmSync(dir, { recursive: true, force: true }))

/** The UsageError a parse throws. */
function refusal(parse: () => unknown): UsageError {
  try {
    parse()
  } catch (error) {
    expect(error).toBeInstanceOf(UsageError)
    return error as UsageError
  }
  throw new Error('the arguments were accepted')
}

describe('an unknown flag names the closest flag, for every command (as the SDK names the closest option)', () => {
  test.each([
    ['serve', ['--clockrate', '60'], '--clock-rate'],
    ['serve', ['--no-ratelimit'], '--no-rate-limit'],
    ['serve', ['--publish-dely', '5'], '--publish-delay'],
    ['serve', ['--controltoken', 't'], '--control-token'],
    ['export', ['--output', 'x.csv'], '--out'],
    ['export', ['--intervall', '1h'], '--interval'],
    ['export', ['--resampel', '5m'], '--resample'],
    ['export', ['--all-pair'], '--all-pairs'],
    ['conformance', ['--api-key', 'k'], '--api-key-file'],
    ['conformance', ['--base_url', 'http://x'], '--base-url'],
    ['conformance', ['--max-request', '5'], '--max-requests'],
  ] as const)('%s %j: did you mean %s?', (command, argv, flag) => {
    const parse = { serve: () => parseServeArgs([...argv], {}), export: () => parseExportArgs(argv), conformance: () => parseConformanceArgs(argv, {}) }[command]
    expect(refusal(parse).message).toBe(`Unknown option '${argv[0]}'; did you mean '${flag}'?`)
  })

  test('a flag near no known one gets no guess; a value given with = is never repeated', () => {
    expect(refusal(() => parseServeArgs(['--zzz'], {})).message).toBe("Unknown option '--zzz'")
    const secret = refusal(() => parseConformanceArgs(['--tokn=sk-live-123'], {})).message
    expect(secret).toBe("Unknown option '--tokn'")
  })

  test('a mistyped command names the closest command', async () => {
    const run = await cliInProcess(['exprot'])
    expect(run.code).toBe(EXIT.usage)
    expect(run.stderr).toContain("market-candles: unknown command 'exprot'; did you mean 'export'?")
  })

  test('over the command line: exit 2, the suggestion, then the command’s usage', async () => {
    const run = await runCli(['export', '--output', join(dir, 'x.csv')])
    expect(run.code).toBe(EXIT.usage)
    expect(run.stderr).toContain("market-candles export: Unknown option '--output'; did you mean '--out'?")
    expect(run.stderr).toContain('Usage: market-candles export')
  })
})

describe('a value the service does not offer is bad usage (exit 2) that says what to do', () => {
  test.each([
    ['5m', '--interval 1m --resample 5m'],
    ['15m', '--interval 1m --resample 15m'],
    ['4h', '--interval 1h --resample 4h'],
    ['1w', '--interval 1d --resample 1w'],
    ['1M', '--interval 1d --resample 1M'],
  ])('--interval %s: %s', (interval, hint) => {
    const error = unofferedInterval(interval, `Unknown interval '${interval}'`)
    expect(error).toBeInstanceOf(UsageError)
    expect(error.message).toContain(`--interval ${interval}: the service does not offer it (404: Unknown interval '${interval}')`)
    expect(error.message).toMatch(new RegExp(`${hint}$`))
  })

  test('an interval resample cannot build names the served ones', () => {
    expect(unofferedInterval('1H', "Unknown interval '1H'").message).toBe("--interval 1H: the service does not offer it (404: Unknown interval '1H'). It serves 1m, 1h and 1d.")
    expect(unofferedInterval('90s', "Unknown interval '90s'").message).not.toContain('--resample')
  })

  test('export --interval 5m against the service: exit 2 on its 404, the --resample hint, nothing written', async () => {
    const out = join(dir, 'five.csv')
    const run = await runCli(['export', '--mock', '--quiet', '--exchange', 'bitstamp', '--pair', 'BTC/USD', '--interval', '5m', '--out', out])
    expect(run.code).toBe(EXIT.usage)
    expect(run.stderr).toContain("market-candles export: --interval 5m: the service does not offer it (404: Unknown interval '5m')")
    expect(run.stderr).toContain('--interval 1m --resample 5m')
    expect(existsSync(out)).toBe(false)
  })
})

describe('--help lists every exit code the commands use', () => {
  test('the top-level usage has a line for each code of cli/exit-codes.ts', () => {
    expect(Object.keys(EXIT_MEANINGS).map(Number).sort((a, b) => a - b)).toEqual(Object.values(EXIT).sort((a, b) => a - b))
    for (const code of Object.values(EXIT)) expect(USAGE).toMatch(new RegExp(`^  ${code} +\\S`, 'm'))
  })

  test('market-candles --help prints them; docs/cli.md and export --help list them too', async () => {
    const run = await cliInProcess(['--help'])
    expect(run.code).toBe(EXIT.ok)
    for (const code of Object.values(EXIT)) expect(run.stdout).toMatch(new RegExp(`^  ${code} +\\S`, 'm'))
    const table = readFileSync(join(ROOT, 'docs/cli.md'), 'utf8')
    for (const code of Object.values(EXIT)) expect(table).toMatch(new RegExp(`^\\| ${code} \\|`, 'm'))
    // export is the command that uses them all.
    for (const code of Object.values(EXIT)) expect(EXPORT_USAGE.slice(EXPORT_USAGE.indexOf('Exit codes:'))).toContain(`${code} `)
  })
})

describe('messages name what a user can open, and count right', () => {
  test('the usages link to the published docs, never to a path of this repository', () => {
    for (const text of [USAGE, SERVE_USAGE, EXPORT_USAGE, CONFORMANCE_USAGE]) {
      const repoPaths = text.replaceAll(/https:\/\/github\.com\/market-candles\/market-candles\/blob\/main\/docs\/[\w.#-]+/g, '').match(/\bdocs\/[\w-]+\.md/g)
      expect(repoPaths).toBeNull()
    }
    expect(CONFORMANCE_USAGE).toContain('https://github.com/market-candles/market-candles/blob/main/docs/contract.md')
  })

  test('conformance names the contract by its published URL', async () => {
    const run = await cliInProcess(['conformance', '--base-url', 'http://127.0.0.1:9', '--only', 'openapi', '--max-requests', '1', '--timeout', '1000'])
    expect(run.stdout).toContain('to interface.md (https://github.com/market-candles/market-candles/blob/main/docs/contract.md): 1 rule, at most 1 request,')
    expect(run.stdout).not.toMatch(/to docs\/contract\.md/)
  })

  test('one of a thing is singular: "1 request", "1 rule", "1 candle", "1 page"', () => {
    expect([plural(0, 'request'), plural(1, 'request'), plural(2, 'request'), plural(8761, 'candle', '8,761')]).toEqual(['0 requests', '1 request', '2 requests', '8,761 candles'])
    const report = { baseUrl: 'http://x', startedAt: '', ms: 1000, reference: false, requests: { used: 1, budget: 600, counted: 1 }, results: [{ id: 'a', title: 'a', link: '', verdict: 'pass' as const, sources: [], failures: [], differences: [], evidence: [], requests: 1, ms: 5 }] }
    expect(textSummary(report)).toBe('1 rule: 1 passed, 0 failed, 0 differ from the reference, 0 skipped\n1 request of a budget of 600 (1 counted as candle call); 1.0 s against http://x')
    const line = followLine({ following: 1, ended: 0, candles: 1, pages: 1, newest: undefined }, { requests: 1, rateLimited: 0 } as never)
    expect(line).toBe('export: following 1 series: waiting for the next close; 1 new candle in 1 page, 1 request, 0 × 429')
  })
})
