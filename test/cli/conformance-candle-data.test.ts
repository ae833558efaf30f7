import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, describe, expect, test } from 'vitest'
import { badExchanges, negativeVolume, offGrid, ohlcOutOfOrder, unknownContributors } from '../../cli/conformance/candle-invariants.js'
import { runConformance } from '../../cli/conformance/index.js'
import { createMockService, type MockService } from '../../mocks/index.js'
import { startMockServer } from '../../mocks/server/index.js'
import { DEVIATIONS, deviate } from '../support/deviations.js'

const DIR = mkdtempSync(join(tmpdir(), 'conformance-candle-data-'))
writeFileSync(join(DIR, 'key'), 'demo-enterprise-key\n')
afterAll(() => rmSync(DIR, { recursive: true, force: true }))
const DATA_RULES = ['close-on-grid', 'ohlc-order', 'volumes-non-negative', 'aggregated-exchanges']

/** `conformance --only` the four data rules against the reference service over HTTP, wrapped by `wrap`. */
async function runDataRules(wrap: (service: MockService) => MockService) {
  const server = await startMockServer({ port: 0, service: wrap(createMockService({ now: '2025-01-01T00:00:00Z' })) })
  try {
    const json = join(DIR, `${Math.random().toString(36).slice(2)}.json`)
    const out: string[] = []
    const code = await runConformance(['--base-url', server.url, '--api-key-file', join(DIR, 'key'), '--json', json, ...DATA_RULES.flatMap((id) => ['--only', id])], { out: (l) => out.push(l), err: (l) => out.push(l), env: {} })
    return { code, out: out.join('\n'), report: JSON.parse(readFileSync(json, 'utf8')) }
  } finally {
    await server.close()
  }
}

const candle = { close_ts: '2025-01-01T10:00:00Z', open: 10, high: 12, low: 9, close: 11, base_volume: 2, quote_volume: 21, exchanges: ['bitstamp', 'kraken'] }
const KNOWN = new Set(['bitstamp', 'ftx', 'kraken'])

describe('conformance: the candle data rules (docs/contract.md#candle-data)', () => {
  test('close_ts sits on its interval\'s grid: whole minutes, whole hours, 00:00:00Z', () => {
    expect(offGrid(candle, '1m')).toBeUndefined()
    expect(offGrid(candle, '1h')).toBeUndefined()
    expect(offGrid({ close_ts: '2025-01-01T00:00:00Z' }, '1d')).toBeUndefined()
    expect(offGrid(candle, '1d')).toMatch(/1d grid .* 2025-01-01T00:00:00Z or 2025-01-02T00:00:00Z/)
    expect(offGrid({ close_ts: '2025-01-01T10:00:30Z' }, '1m')).toMatch(/2025-01-01T10:00:00Z or 2025-01-01T10:01:00Z/)
    expect(offGrid({ close_ts: '2025-01-01T10:30:00Z' }, '1h')).toBeDefined()
    // An interval without a known grid, or a close_ts that is not a datetime (the openapi rule's), is not judged.
    expect(offGrid({ close_ts: '2025-01-01T10:00:30Z' }, '4h')).toBeUndefined()
    expect(offGrid({ close_ts: 'soon' }, '1m')).toBeUndefined()
  })

  test('low <= open <= high and low <= close <= high', () => {
    expect(ohlcOutOfOrder(candle)).toBeUndefined()
    expect(ohlcOutOfOrder({ ...candle, open: 9, close: 12 })).toBeUndefined()
    expect(ohlcOutOfOrder({ ...candle, open: 13 })).toMatch(/open 13/)
    expect(ohlcOutOfOrder({ ...candle, close: 8.5 })).toMatch(/close 8.5/)
    expect(ohlcOutOfOrder({ ...candle, high: 9, low: 12 })).toBeDefined()
    // A price of the wrong type is the openapi rule's failure.
    expect(ohlcOutOfOrder({ ...candle, open: '13' })).toBeUndefined()
  })

  test('base_volume >= 0 and quote_volume >= 0', () => {
    expect(negativeVolume(candle)).toBeUndefined()
    expect(negativeVolume({ ...candle, base_volume: 0, quote_volume: 0 })).toBeUndefined()
    expect(negativeVolume({ ...candle, base_volume: -2 })).toBe('base_volume >= 0 (got base_volume -2)')
    expect(negativeVolume({ ...candle, quote_volume: -0.5 })).toBe('quote_volume >= 0 (got quote_volume -0.5)')
  })

  test("an aggregated candle's exchanges are exchanges /v1/exchanges lists (interface.md)", () => {
    expect(unknownContributors(candle, KNOWN)).toBeUndefined()
    expect(unknownContributors({ exchanges: ['Bitstamp'] }, KNOWN)).toMatch(/not listed: Bitstamp/)
    expect(unknownContributors({ exchanges: 'bitstamp' }, KNOWN)).toBeUndefined()
  })

  test("an aggregated candle's exchanges as the reference writes them (D9): at least one, ascending, each once", () => {
    expect(badExchanges(candle)).toBeUndefined()
    expect(badExchanges({ exchanges: [] })).toMatch(/at least one/)
    expect(badExchanges({ exchanges: ['kraken', 'bitstamp'] })).toMatch(/ascending, each once: \["bitstamp","kraken"\]/)
    expect(badExchanges({ exchanges: ['bitstamp', 'bitstamp'] })).toMatch(/each once: \["bitstamp"\]/)
    expect(badExchanges({ exchanges: 'bitstamp' })).toBeUndefined()
  })
})

describe('conformance: the candle data rules run alone (--only)', () => {
  test('with no page fetched by other rules, they fetch the newest candles of each candle endpoint, and pass on the reference service', async () => {
    const run = await runDataRules((s) => s)
    expect(run.report.rules.map((r: any) => [r.id, r.verdict]), run.out).toEqual(DATA_RULES.map((id) => [id, 'pass']))
    expect(run.report.requests.counted).toBe(2)
    expect(run.report.requests.used).toBeLessThanOrEqual(10)
  }, 60_000)

  test('a broken candle is reported once, with the request that got it, the candle and what was expected', async () => {
    const run = await runDataRules((s) => deviate(s, DEVIATIONS.find((d) => d.breaks === 'ohlc-order')!))
    expect(run.report.rules.filter((r: any) => r.verdict === 'fail').map((r: any) => r.id), run.out).toEqual(['ohlc-order'])
    const [first] = run.report.rules.find((r: any) => r.id === 'ohlc-order').failures
    expect(first.request).toMatch(/^GET \/v1\/exchange_ohlcv\?.*limit=100 \(X-API-Key: <main key, redacted>\)$/)
    expect(first.expected).toMatch(/^low <= open <= high and low <= close <= high \(low [\d.]+, open [\d.]+, close [\d.]+, high [\d.]+\)$/)
    const candle = JSON.parse(first.actual)
    expect(candle.low).toBeGreaterThan(candle.high)
    // 100 candles per endpoint: five shown, the rest counted. Exchange candles break what OHLCV
    // means (interface.md): failures; aggregated ones break D9's arithmetic: differences.
    expect(run.out).toContain('and 95 more failures like these')
    expect(run.out).toContain('and 95 more differences like these')
    expect(first.source.ref).toBe('interface.md#ohlcv')
    const [difference] = run.report.rules.find((r: any) => r.id === 'ohlc-order').differences
    expect(difference.source.ref).toBe('D9')
    expect(difference.request).toMatch(/^GET \/v1\/aggregated_ohlcv\?/)
  }, 60_000)
})
