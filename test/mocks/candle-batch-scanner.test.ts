import { describe, expect, test } from 'vitest'
import fc from 'fast-check'
import { CandleBatchScanner, handleControl } from '../../mocks/core/control-plane/control-plane.js'
import { createMockService, type MockService } from '../../mocks/core/service/service.js'
import { putCandleColumns } from '../../mocks/core/arranged/service-data.js'
import type { ExchangeColumns } from '../../mocks/data/exchange-columns.js'
import { formatTimestamp } from '../../src/contract/index.js'
import type { ExchangeCandle } from '../../src/schemas/index.js'

/*
 * POST /_mock/data/candles reads its body into columns as the bytes arrive (candle-batch-scanner.ts)
 * and falls back to one JSON.parse of the whole text on any doubt. The rules checked here: whatever
 * the scanner reads, it reads as JSON.parse does, wherever the bytes were cut; it gives up on
 * anything outside the plain case; and the route answers and stores exactly what the text path
 * answers and stores, 422s included.
 */

const FIELDS = ['exchange', 'interval', 'base', 'quote', 'close_ts', 'open', 'high', 'low', 'close', 'base_volume', 'quote_volume', 'source_provider', 'source_channel', 'flag']
const T0 = Date.UTC(2026, 4, 1, 0)

/**
 * Scans `text` a piece at a time, `cuts` the piece ends. `exact`: each piece in a buffer of its own,
 * exactly its bytes (a read past them gives undefined or throws, so it shows); `sliced`: each piece
 * a view into a larger buffer with other bytes (`"9,}] ` repeated) around it, as a socket's chunks
 * are; `reused`: that larger buffer is overwritten as soon as the scanner returns (nothing may point
 * into a chunk past its push).
 */
function scanPieces(text: string, cuts: readonly number[] = [], mode: 'exact' | 'sliced' | 'reused' = 'exact'): ExchangeColumns[] | undefined {
  const bytes = Buffer.from(text)
  const scanner = new CandleBatchScanner(bytes.length)
  let size = 0
  for (const cut of [...new Set(cuts.map((c) => Math.min(c, bytes.length)))].sort((a, b) => a - b).concat(bytes.length)) {
    if (cut <= size) continue
    if (mode === 'exact') scanner.push(Uint8Array.from(bytes.subarray(size, cut)))
    else {
      const around = Buffer.alloc(cut - size + 64, '"9,}] ')
      bytes.copy(around, 32, size, cut)
      scanner.push(around.subarray(32, 32 + cut - size))
      if (mode === 'reused') around.fill('"9,}] ')
    }
    size = cut
  }
  return scanner.finish()
}

/** The candles of the runs, each series' in batch order. */
const candlesOf = (runs: readonly ExchangeColumns[]) => runs.flatMap((r) => Array.from({ length: r.length }, (_, i) => r.at(i)!.candle))

/** What JSON.parse reads: the rows grouped by series in order of first appearance, close_ts as the service writes it. */
function parsedCandles(text: string): unknown[] {
  const rows = JSON.parse(text) as Record<string, unknown>[]
  const groups = new Map<string, unknown[]>()
  for (const r of rows) {
    const key = JSON.stringify([r.exchange, r.interval, r.base, r.quote])
    if (!groups.has(key)) groups.set(key, [])
    groups.get(key)!.push(Object.fromEntries(FIELDS.map((f) => [f, f === 'close_ts' ? formatTimestamp(Date.parse(r[f] as string)) : r[f]])))
  }
  return [...groups.values()].flat()
}

// ---- plain batches: the fields in any order, any JSON whitespace ---------------------------------

const space = fc.constantFrom('', '', '', ' ', '\n', '\t', '\r\n  ')
const text = fc.stringMatching(/^[ -!#-[\]-~]{0,12}$/) // printable ASCII but `"` and `\`
const number = fc.oneof(fc.double({ noNaN: true, noDefaultInfinity: true }), fc.integer({ min: -1e6, max: 1e6 }), fc.integer({ min: 0, max: 100_000 }).map((n) => n / 100))
const row = fc.record({
  exchange: fc.constantFrom('bitstamp', 'kraken'),
  interval: fc.constantFrom('1m', '1h'),
  base: fc.constantFrom('BTC', 'ETH'),
  quote: fc.constant('USD'),
  close_ts: fc.tuple(fc.integer({ min: 0, max: 5000 }), fc.constantFrom('Z', '.000Z', '.0Z', '.000000000Z')).map(([m, end]) => new Date(T0 + m * 60_000).toISOString().replace('.000Z', end)),
  open: number,
  high: number,
  low: number,
  close: number,
  base_volume: number,
  quote_volume: number,
  source_provider: text,
  source_channel: text,
  flag: fc.option(text),
})
/** A batch written with its rows' fields shuffled and whitespace between any two tokens. */
const plainBatch = fc
  .array(fc.tuple(row, fc.array(fc.nat(), { minLength: 14, maxLength: 14 }), fc.array(space, { minLength: 60, maxLength: 60 })), { minLength: 1, maxLength: 30 })
  .map((rows) => {
    const parts = rows.map(([r, order, ws]) => {
      const keys = FIELDS.map((f, i) => [f, order[i]!] as const).sort((a, b) => a[1] - b[1]).map(([f]) => f)
      const pairs = keys.map((k, i) => `${ws[4 * i]}${JSON.stringify(k)}${ws[4 * i + 1]}:${ws[4 * i + 2]}${JSON.stringify((r as Record<string, unknown>)[k])}${ws[4 * i + 3]}`)
      return `${ws[56]}{${pairs.join(',')}}${ws[57]}`
    })
    return `${rows[0]![2][58]}[${parts.join(',')}]${rows[0]![2][59]}`
  })
const cuts = fc.array(fc.nat({ max: 20_000 }), { maxLength: 40 })

describe('the candle batch scanner reads a body as JSON.parse does, or gives up', () => {
  test('a batch split across chunks at any byte is applied exactly as one parse', () => {
    fc.assert(
      fc.property(plainBatch, cuts, (body, at) => {
        const whole = scanPieces(body)
        expect(whole).toBeDefined()
        expect(candlesOf(whole!)).toEqual(parsedCandles(body))
        for (const mode of ['exact', 'sliced', 'reused'] as const) {
          expect(candlesOf(scanPieces(body, at, mode)!)).toEqual(candlesOf(whole!))
          // Cut at every byte: one byte per piece.
          if (body.length < 600) expect(candlesOf(scanPieces(body, Array.from({ length: body.length }, (_, i) => i), mode)!)).toEqual(candlesOf(whole!))
        }
      }),
      { numRuns: 300 },
    )
  })

  test('JSON.stringify of any batch of plain candles is read whole, one run per series', () => {
    fc.assert(
      fc.property(fc.array(row, { minLength: 1, maxLength: 40 }), (rows) => {
        const body = JSON.stringify(rows)
        const runs = scanPieces(body)!
        expect(candlesOf(runs)).toEqual(parsedCandles(body))
        expect(new Set(runs.map((r) => `${r.exchange} ${r.interval} ${r.base} ${r.quote}`)).size).toBe(runs.length)
      }),
    )
  })

  test('every JSON number is read as the same double JSON.parse reads (short decimals, long ones, exponents, -0)', () => {
    const written = fc.tuple(
      fc.boolean(),
      fc.oneof(fc.constant('0'), fc.stringMatching(/^[1-9][0-9]{0,24}$/)),
      fc.option(fc.stringMatching(/^[0-9]{1,25}$/)),
      fc.option(fc.tuple(fc.constantFrom('e', 'E'), fc.constantFrom('', '+', '-'), fc.stringMatching(/^[0-9]{1,3}$/))),
    ).map(([minus, int, frac, exp]) => `${minus ? '-' : ''}${int}${frac === null ? '' : `.${frac}`}${exp === null ? '' : exp.join('')}`)
    const one = (n: string) => `[{"exchange":"bitstamp","interval":"1m","base":"BTC","quote":"USD","close_ts":"2026-05-01T00:00:00Z","open":${n},"high":1,"low":1,"close":1,"base_volume":1,"quote_volume":1,"source_provider":"p","source_channel":"c","flag":null}]`
    fc.assert(
      fc.property(fc.oneof(written, fc.double({ noNaN: true, noDefaultInfinity: true }).map((x) => JSON.stringify(x))), fc.nat({ max: 200 }), (n, cut) => {
        const open = scanPieces(one(n), [cut])![0]!.open[0]
        expect(Object.is(open, JSON.parse(n))).toBe(true)
      }),
      { numRuns: 2000 },
    )
    for (const n of ['-0', '-0.0', '0e5', '1E400', '-1e-400', '123456789012345678901234567890', '0.1', '9007199254740993', '2.2250738585072011e-308']) {
      expect(Object.is(scanPieces(one(n))![0]!.open[0], JSON.parse(n))).toBe(true)
    }
  })

  test.each([
    ['not JSON', '[{'],
    ['empty', ''],
    ['an empty array', '[]'],
    ['an object', '{"exchange":"bitstamp"}'],
    ['a trailing comma', `[${JSON.stringify(plain())},]`],
    ['text after the array', `[${JSON.stringify(plain())}]x`],
    ['a byte-order mark', `\uFEFF[${JSON.stringify(plain())}]`],
    ['an escape in a string', JSON.stringify([plain({ source_provider: 'a"b' })])],
    ['a \\u escape', JSON.stringify([plain()]).replace('"bitstamp"', '"bit\\u0073tamp"')],
    ['a non-ASCII string', JSON.stringify([plain({ source_channel: 'café' })])],
    ['an extra field', JSON.stringify([plain({ note: 1 })])],
    ['a missing field', JSON.stringify([{ ...plain(), flag: undefined }])],
    ['a field twice', JSON.stringify([plain()]).replace('"flag":null', '"flag":null,"flag":"x"')],
    ['an aggregated row', JSON.stringify([{ ...plain(), exchange: undefined, exchanges: ['bitstamp'], method: 'omm_vwap_v1' }])],
    ['a number as a string', JSON.stringify([plain({ open: '100' })])],
    ['a string as a number', JSON.stringify([plain({ base: 7 })])],
    ['a leading zero', JSON.stringify([plain()]).replace('"open":100', '"open":0100')],
    ['a bare decimal point', JSON.stringify([plain()]).replace('"open":100', '"open":100.')],
    ['a close_ts with an offset', JSON.stringify([plain({ close_ts: '2026-05-01T01:00:00+01:00' })])],
    ['a close_ts with a fraction', JSON.stringify([plain({ close_ts: '2026-05-01T00:00:00.5Z' })])],
    ['a close_ts on no calendar day', JSON.stringify([plain({ close_ts: '2026-02-29T00:00:00Z' })])],
    ['a nested value', JSON.stringify([plain({ flag: ['x'] })])],
  ])('it gives up on a body that is not the plain case: %s', (_name, body) => {
    expect(scanPieces(body)).toBeUndefined()
  })

  test('a batch of more than 1000 series is left to the text path (columns pay for few series of many rows)', () => {
    const batch = (n: number) => JSON.stringify(Array.from({ length: n }, (_, i) => plain({ exchange: `x${i}` })))
    expect(scanPieces(batch(1000))).toHaveLength(1000)
    expect(scanPieces(batch(1001))).toBeUndefined()
  })

  test('a long string value is read whole', () => {
    const long = 'p'.repeat(200_000)
    const runs = scanPieces(JSON.stringify([plain({ source_provider: long }), plain({ source_provider: long, close_ts: '2026-05-01T00:01:00Z' })]), [7, 100_000])!
    expect(candlesOf(runs).map((c) => c.source_provider)).toEqual([long, long])
  })

  test('a body changed anywhere is either given up or read as JSON.parse reads it (never otherwise)', () => {
    const edit = fc.record({ at: fc.nat(), char: fc.constantFrom('"', '\\', ',', ':', '{', '}', '[', ']', ' ', '0', '7', '-', '.', 'e', 'n', 'x', 'é', '\u0000'), kind: fc.constantFrom('insert', 'replace', 'delete') })
    fc.assert(
      fc.property(fc.array(row, { minLength: 1, maxLength: 4 }), fc.array(edit, { minLength: 1, maxLength: 3 }), cuts, (rows, edits, at) => {
        let body = JSON.stringify(rows)
        for (const e of edits) {
          const i = e.at % (body.length + 1)
          body = body.slice(0, i) + (e.kind === 'delete' ? '' : e.char) + body.slice(e.kind === 'insert' ? i : i + 1)
        }
        const runs = scanPieces(body, at, (['exact', 'sliced', 'reused'] as const)[at.length % 3])
        if (runs === undefined) return
        const parsed = JSON.parse(body) as Record<string, unknown>[]
        for (const r of parsed) expect(Object.keys(r).sort()).toEqual([...FIELDS].sort())
        expect(candlesOf(runs)).toEqual(parsedCandles(body))
      }),
      { numRuns: 3000 },
    )
  })
})

/** A plain candle of bitstamp BTC/USD 1m, valid by every rule. */
function plain(extra: Record<string, unknown> = {}): Record<string, unknown> {
  return { exchange: 'bitstamp', interval: '1m', base: 'BTC', quote: 'USD', close_ts: '2026-05-01T00:00:00Z', open: 100, high: 110, low: 90, close: 105, base_volume: 2, quote_volume: 200, source_provider: 'test', source_channel: 'rest', flag: null, ...extra }
}

// ---- the route: the scanned body against the text ------------------------------------------------

const HEADERS = { 'x-api-key': 'demo-enterprise-key' }
const SERIES = [
  ['bitstamp', '1m', 'BTC', 'USD'],
  ['bitstamp', '1h', 'ETH', 'USD'],
  ['ftx', '1m', 'BTC', 'USD'],
  ['nowhere', '1m', 'BTC', 'USD'],
  ['bitstamp', '1m', 'PEPE', 'USD'],
] as const

/** `usual`, and one time in 40 `rare`. */
const rarely = <T>(usual: fc.Arbitrary<T>, rare: fc.Arbitrary<T>) => fc.oneof({ arbitrary: usual, weight: 39 }, { arbitrary: rare, weight: 1 })

/** Candles that break a rule now and then: prices out of order, a volume below zero, an unknown exchange or asset, a closed exchange, off the grid, repeats, rows out of order. */
const roughRow = fc
  .record({
    series: fc.nat({ max: 200 }).map((n) => SERIES[n < 196 ? n % 2 : n - 196]!),
    minute: fc.integer({ min: 0, max: 1000 }),
    second: rarely(fc.constant(0), fc.integer({ min: 1, max: 59 })),
    low: fc.integer({ min: 50, max: 100 }),
    spread: rarely(fc.integer({ min: 0, max: 40 }), fc.constant(-1)),
    open: fc.integer({ min: 0, max: 100 }),
    close: fc.integer({ min: 0, max: 100 }),
    base_volume: rarely(fc.integer({ min: 0, max: 5 }), fc.constant(-1)),
    // Where the volume-weighted price lies in [low, high]: 100 at high, more is above it.
    price: rarely(fc.integer({ min: 0, max: 100 }), fc.integer({ min: 101, max: 150 })),
    source: fc.constantFrom('a', 'b'),
    flag: fc.constantFrom(null, 'outlier'),
  })
  .map((r) => {
    const [exchange, interval, base, quote] = r.series
    const high = r.low + r.spread
    const step = interval === '1h' ? 3_600_000 : 60_000
    return {
      exchange, interval, base, quote,
      close_ts: formatTimestamp(T0 + r.minute * step + r.second * 1000),
      open: r.low + (r.open * (high - r.low)) / 100, high, low: r.low, close: r.low + (r.close * (high - r.low)) / 100,
      base_volume: r.base_volume, quote_volume: r.base_volume * (r.low + (r.price * (high - r.low)) / 100),
      source_provider: r.source, source_channel: 'rest', flag: r.flag,
    }
  })

/** What the API serves of every series the batches name, around T0. */
async function served(service: MockService): Promise<unknown[]> {
  const out = []
  for (const [exchange, interval, base, quote] of SERIES.slice(0, 3)) {
    const res = await service.handle({ method: 'GET', url: `/v1/exchange_ohlcv?exchange=${exchange}&interval=${interval}&base=${base}&quote=${quote}&start=${formatTimestamp(T0 - 3_600_000)}&limit=300`, headers: HEADERS })
    out.push(res.status, res.body)
  }
  return out
}

describe('POST /_mock/data/candles read as columns answers and stores what the text path does', () => {
  const post = (service: MockService, body: string, scanned: boolean) =>
    handleControl(service, { method: 'POST', path: '/_mock/data/candles', body: scanned ? '' : body, ...(scanned ? { candles: { runs: scanPieces(body), text: () => body } } : {}) })

  test('any batch, bad rows included: the same status and body, and then the same candles served (each batch on top of the last)', async () => {
    // Rows in close-time order most of the time (the common case), each series' own order else.
    const batch = fc.tuple(fc.array(roughRow, { minLength: 1, maxLength: 12 }), fc.nat({ max: 4 })).map(([rows, k]) => (k > 0 ? rows.sort((a, b) => Date.parse(a.close_ts) - Date.parse(b.close_ts)) : rows))
    let stored = 0
    let refused = 0
    // Stored by the columns themselves (not their fallback): asked of a service with the same catalog.
    const probe = createMockService({ now: '2026-06-01T00:00:00Z', rateLimit: false })
    await fc.assert(
      fc.asyncProperty(fc.array(batch, { minLength: 1, maxLength: 4 }), async (batches) => {
        const byText = createMockService({ now: '2026-06-01T00:00:00Z', rateLimit: false })
        const byColumns = createMockService({ now: '2026-06-01T00:00:00Z', rateLimit: false })
        for (const batch of batches) {
          const body = JSON.stringify(batch)
          const [a, b] = [await post(byText, body, false), await post(byColumns, body, true)]
          expect(b.status).toBe(a.status)
          expect(b.body).toEqual(a.body)
          const runs = scanPieces(body)
          if (runs && putCandleColumns(probe.data, runs)) stored++
          if (a.status === 422) refused++
          probe.data.reset()
        }
        expect(await served(byColumns)).toEqual(await served(byText))
      }),
      { numRuns: 100 },
    )
    // Both kinds of batch were met often: stored as columns, and refused (the text path's 422).
    expect(Math.min(stored, refused)).toBeGreaterThan(30)
  })

  test('a batch stored as columns then changed by putCandles, removeCandles and generate serves what the same changes over objects serve', async () => {
    const batch = Array.from({ length: 300 }, (_, i) => ({ ...plain({ close_ts: formatTimestamp(T0 + i * 60_000), source_provider: i % 7 ? 'a' : 'b', flag: i % 11 ? null : 'outlier' }) }))
    const byText = createMockService({ now: '2026-06-01T00:00:00Z', rateLimit: false })
    const byColumns = createMockService({ now: '2026-06-01T00:00:00Z', rateLimit: false })
    const body = JSON.stringify(batch)
    expect(scanPieces(body)).toBeDefined()
    expect((await post(byText, body, false)).body).toEqual({ candles: 300 })
    expect((await post(byColumns, body, true)).body).toEqual({ candles: 300 })
    expect(await served(byColumns)).toEqual(await served(byText))
    for (const service of [byText, byColumns]) {
      service.data.putCandles([plain({ close_ts: formatTimestamp(T0 + 10 * 60_000), close: 91 }), plain({ close_ts: formatTimestamp(T0 + 400 * 60_000) })] as unknown as ExchangeCandle[])
      service.data.removeCandles({ exchange: 'bitstamp', interval: '1m', base: 'BTC', quote: 'USD', from: T0 + 20 * 60_000, to: T0 + 30 * 60_000 })
      service.data.generate({ exchange: 'bitstamp', interval: '1m', base: 'BTC', quote: 'USD', from: T0 + 50 * 60_000, to: T0 + 60 * 60_000, seed: 2 })
    }
    expect(await served(byColumns)).toEqual(await served(byText))
  })
})
