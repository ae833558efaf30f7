import fc from 'fast-check'
import { describe, expect, test } from 'vitest'
import { ResampleError, resample, type AggregatedCandle, type ExchangeCandle } from '../../src/index.js'
import { formatTimestamp } from '../../src/contract/index.js'
import { referenceResample } from './resample-reference.js'

const MINUTE = 60_000
const HOUR = 3_600_000
const DAY = 86_400_000
const STEP = { '1m': MINUTE, '1h': HOUR, '1d': DAY } as const
type Source = keyof typeof STEP

const FLAGS = [null, null, null, null, 'outlier', 'outlier_excluded', 'halted'] as const

function exchangeCandle(interval: Source, t: number, price: number, volume: number, flag: string | null): ExchangeCandle {
  return {
    exchange: 'bitstamp', interval, base: 'BTC', quote: 'USD', close_ts: formatTimestamp(t),
    open: price, high: price + volume, low: price - volume, close: price + 1, base_volume: volume, quote_volume: volume * price,
    source_provider: 'p', source_channel: 'c', flag,
  }
}

function aggregatedCandle(interval: Source, t: number, price: number, volume: number, flag: string | null, exchanges: string[]): AggregatedCandle {
  const { exchange: _e, source_provider: _p, source_channel: _c, ...rest } = exchangeCandle(interval, t, price, volume, flag)
  return { method: 'omm_vwap_v1', ...rest, exchanges }
}

/** A random series with gaps: ascending slots of `interval` from a random start, some left out. */
const seriesArb = (interval: Source, maxSlots: number) =>
  fc.record({
    // from 2023-12-25 (a Monday) over about a month of slots
    firstSlot: fc.integer({ min: 0, max: 2000 }),
    slots: fc.array(fc.record({ skip: fc.oneof(fc.constant(0), fc.constant(0), fc.constant(0), fc.integer({ min: 0, max: 40 })), price: fc.integer({ min: 1, max: 100_000 }), volume: fc.double({ min: 0, max: 1000, noNaN: true }), flag: fc.constantFrom(...FLAGS), exchanges: fc.subarray(['a', 'b', 'c', 'd']) }), { minLength: 1, maxLength: maxSlots }),
  })

type SeriesSpec = ReturnType<typeof seriesArb> extends fc.Arbitrary<infer R> ? R : never

function build(interval: Source, { firstSlot, slots }: SeriesSpec, aggregated: boolean): Array<ExchangeCandle | AggregatedCandle> {
  let t = Date.UTC(2023, 11, 25) + firstSlot * STEP[interval]
  return slots.map((s) => {
    t += (s.skip + 1) * STEP[interval]
    return aggregated ? aggregatedCandle(interval, t, s.price, s.volume, s.flag, s.exchanges) : exchangeCandle(interval, t, s.price, s.volume, s.flag)
  })
}

const TARGETS: Record<Source, string[]> = {
  '1m': ['1m', '2m', '5m', '7m', '15m', '1h', '4h', '1d'],
  '1h': ['1h', '2h', '4h', '1d', '1w', '1M'],
  '1d': ['1d', '2d', '1w', '1M', '3M', '12M'],
}

describe('resample agrees with a plain reference implementation over random series with gaps', () => {
  for (const interval of ['1m', '1h', '1d'] as const) {
    test(`${interval} candles, exchange and aggregated, every target, with and without dropPartial`, () => {
      fc.assert(
        fc.property(seriesArb(interval, interval === '1m' ? 600 : 300), fc.constantFrom(...TARGETS[interval]), fc.boolean(), fc.boolean(), (series, target, aggregated, dropPartial) => {
          const candles = build(interval, series, aggregated)
          const got = [...resample(candles as ExchangeCandle[], target, { dropPartial })]
          expect(got).toEqual(referenceResample(candles, target, dropPartial))
        }),
        { numRuns: 150 },
      )
    })
  }

  test('an async source (a walk) gives the same candles as the array', async () => {
    await fc.assert(
      fc.asyncProperty(seriesArb('1m', 300), fc.constantFrom(...TARGETS['1m']), async (series, target) => {
        const candles = build('1m', series, false)
        async function* walk() {
          for (const c of candles) yield c
        }
        const got = []
        for await (const c of resample(walk(), target)) got.push(c)
        expect(got).toEqual([...resample(candles, target)])
      }),
      { numRuns: 50 },
    )
  })

  test('forming mode: each final bucket is what batch mode gives, and every forming one is its bucket so far', () => {
    fc.assert(
      fc.property(seriesArb('1m', 200), fc.constantFrom('5m', '15m', '1h'), (series, target) => {
        const candles = build('1m', series, false)
        const got = [...resample(candles, target, { forming: true })]
        expect(got.filter((c) => c.final)).toEqual([...resample(candles, target)])
        for (const c of got.filter((c) => !c.final)) {
          const sofar = candles.filter((s) => s.close_ts <= c.close_ts && Date.parse(s.close_ts) > Date.parse(c.close_ts) - c.source_expected * MINUTE)
          const upTo = sofar.slice(0, c.source_candles)
          expect({ ...c, final: true }).toEqual(referenceResample(upTo, target)[0])
        }
      }),
      { numRuns: 100 },
    )
  })
})

describe('resampling rules', () => {
  const day = Date.UTC(2024, 0, 1) // a Monday
  const minutes = (from: number, count: number) => Array.from({ length: count }, (_, i) => exchangeCandle('1m', day + (from + i) * MINUTE, 100 + i, 1, null))

  test("a bucket's close_ts is its end, aligned to UTC; open first, close last, high max, low min, volumes summed", () => {
    const [bucket] = [...resample(minutes(1, 15), '15m')]
    expect(bucket).toMatchObject({ interval: '15m', close_ts: '2024-01-01T00:15:00Z', open: 100, close: 115, high: 115, low: 99, base_volume: 15, source_candles: 15, source_expected: 15, complete: true, final: true })
  })

  test('a partial first or last bucket is marked (complete: false), and dropPartial leaves it out', () => {
    const got = [...resample(minutes(10, 20), '15m')] // 00:10 .. 00:29
    expect(got.map((c) => [c.close_ts, c.source_candles, c.complete])).toEqual([
      ['2024-01-01T00:15:00Z', 6, false],
      ['2024-01-01T00:30:00Z', 14, false],
    ])
    expect([...resample(minutes(1, 30), '15m', { dropPartial: true })].map((c) => c.close_ts)).toEqual(['2024-01-01T00:15:00Z', '2024-01-01T00:30:00Z'])
    expect([...resample(minutes(10, 20), '15m', { dropPartial: true })]).toEqual([])
  })

  test('weeks start on Monday 00:00 UTC; months are calendar months', () => {
    const days = Array.from({ length: 70 }, (_, i) => exchangeCandle('1d', Date.UTC(2024, 0, 1) + (i + 1) * DAY, 100, 1, null))
    const weeks = [...resample(days, '1w')]
    expect(weeks[0]).toMatchObject({ close_ts: '2024-01-08T00:00:00Z', source_candles: 7, complete: true })
    const months = [...resample(days, '1M')]
    expect(months.map((c) => [c.close_ts, c.source_candles, c.source_expected])).toEqual([
      ['2024-02-01T00:00:00Z', 31, 31],
      ['2024-03-01T00:00:00Z', 29, 29], // 2024 is a leap year
      ['2024-04-01T00:00:00Z', 10, 31],
    ])
  })

  test('aggregated candles: exchanges is the union of the bucket’s; flag is the strongest of the bucket’s', () => {
    const agg = [
      aggregatedCandle('1h', day + HOUR, 1, 1, null, ['b']),
      aggregatedCandle('1h', day + 2 * HOUR, 1, 1, 'outlier', ['a', 'c']),
      aggregatedCandle('1h', day + 3 * HOUR, 1, 1, 'halted', ['c']),
      aggregatedCandle('1h', day + 4 * HOUR, 1, 1, null, ['b']),
    ]
    const [bucket] = [...resample(agg, '4h')]
    expect(bucket).toMatchObject({ method: 'omm_vwap_v1', exchanges: ['a', 'b', 'c'], flag: 'outlier', complete: true })
    const excluded = [...resample([agg[0]!, { ...agg[1]!, flag: 'outlier_excluded' as const }], '4h')]
    expect(excluded[0]!.flag).toBe('outlier_excluded')
  })

  test('forming mode over a hand-made live source: the forming bucket as it changes (final: false), then once final', async () => {
    async function* live() {
      for (const c of minutes(1, 17)) yield c // 00:01 .. 00:17
    }
    const got: Array<[string, number, boolean]> = []
    for await (const c of resample(live(), '15m', { forming: true })) got.push([c.close_ts, c.source_candles, c.final])
    expect(got).toEqual([
      ...Array.from({ length: 14 }, (_, i) => ['2024-01-01T00:15:00Z', i + 1, false]),
      ['2024-01-01T00:15:00Z', 15, true], // its 15th candle completes it: final at once
      ['2024-01-01T00:30:00Z', 1, false],
      ['2024-01-01T00:30:00Z', 2, false],
      ['2024-01-01T00:30:00Z', 2, true], // the source ended
    ])
  })

  test('a forming bucket left by a gap is final when a candle of a later bucket arrives', async () => {
    const source = [...minutes(1, 3), ...minutes(20, 1)]
    const got = [...resample(source, '15m', { forming: true })].map((c) => [c.close_ts, c.source_candles, c.final])
    expect(got).toEqual([
      ['2024-01-01T00:15:00Z', 1, false],
      ['2024-01-01T00:15:00Z', 2, false],
      ['2024-01-01T00:15:00Z', 3, false],
      ['2024-01-01T00:15:00Z', 3, true],
      ['2024-01-01T00:30:00Z', 1, false],
      ['2024-01-01T00:30:00Z', 1, true],
    ])
  })
})

describe('bad input is a clear error', () => {
  const day = Date.UTC(2024, 0, 1)
  const hours = Array.from({ length: 4 }, (_, i) => exchangeCandle('1h', day + (i + 1) * HOUR, 1, 1, null))
  const errorOf = (run: () => unknown) => {
    try {
      run()
    } catch (error) {
      return error as Error
    }
    throw new Error('no error')
  }

  test('a target that is not an interval is a RangeError at once', () => {
    for (const target of ['15', 'm15', '15s', '0m', '1.5h', '']) expect(() => resample(hours, target)).toThrow(RangeError)
    expect(() => resample(hours, '15x')).toThrow(/'15x' is not an interval/)
  })

  test('a target that is not a whole multiple of the source interval', () => {
    const error = errorOf(() => [...resample(hours, '90m')])
    expect(error).toBeInstanceOf(ResampleError)
    expect(error.message).toBe('cannot resample 1h candles to 90m: 90m is not a whole multiple of 1h')
    expect(() => [...resample(hours, '30m')]).toThrow(/not a whole multiple of 1h/)
  })

  test('candles out of order, twice, or from a backward walk', () => {
    expect(errorOf(() => [...resample([hours[1]!, hours[0]!], '4h')]).message).toMatch(/out of order: 2024-01-01T01:00:00Z after 2024-01-01T02:00:00Z; resample needs ascending close_ts/)
    expect(errorOf(() => [...resample([hours[0]!, hours[0]!], '4h')]).message).toMatch(/comes twice/)
  })

  test('mixed series', () => {
    const error = errorOf(() => [...resample([hours[0]!, { ...hours[1]!, base: 'ETH' }], '4h')])
    expect(error).toBeInstanceOf(ResampleError)
    expect(error.message).toMatch(/mixed series: 2024-01-01T02:00:00Z is bitstamp ETH\/USD 1h, the first candle was bitstamp BTC\/USD 1h/)
    expect(() => [...resample([hours[0]!, { ...hours[1]!, interval: '1m' }], '4h')]).toThrow(/mixed series/)
  })

  test('candles off their interval grid, an unknown interval, not candles, not iterable, unknown options', () => {
    expect(() => [...resample([{ ...hours[0]!, close_ts: '2024-01-01T00:30:00Z' }], '4h')]).toThrow(/not on the 1h grid/)
    expect(() => [...resample([{ ...hours[0]!, interval: '5m' }], '1h')]).toThrow(/'5m' is newer than this package/)
    expect(() => [...resample([{ ...hours[0]!, close_ts: 'yesterday' }], '1h')]).toThrow(/'yesterday' is not a datetime/)
    expect(() => [...resample([null as unknown as ExchangeCandle], '1h')]).toThrow(ResampleError)
    expect(() => resample(42 as unknown as ExchangeCandle[], '1h')).toThrow(/iterable or async iterable/)
    expect(() => resample(hours, '4h', { dropPartials: true } as never)).toThrow(/did you mean 'dropPartial'/)
  })
})
