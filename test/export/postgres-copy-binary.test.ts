/**
 * The PostgreSQL sink's COPY binary encoder without a server (test/export/postgres.test.ts loads its
 * output into a real one): the bytes do not depend on where the buffer had to grow, and close_ts
 * read by position is what Date.parse reads.
 */
import fc from 'fast-check'
import { describe, expect, test } from 'vitest'
import { CopyBinaryWriter, closeTsMs } from '../../cli/export/sinks/postgres/postgres-copy-binary.js'
import type { AnyCandle } from '../../cli/export/sinks/sink.js'

const prices = { open: 1.5, high: 2.25, low: 0.1 + 0.2, close: 1e-7, base_volume: 123456789.123456789, quote_volume: 1e21 }
const exchange = (i: number): AnyCandle => ({
  exchange: i % 3 === 0 ? 'bitstamp' : 'cöinbase €', interval: '1m', base: 'BTC', quote: 'USD',
  close_ts: new Date(Date.UTC(2024, 0, 1) + i * 60_000).toISOString().replace('.000Z', 'Z'),
  ...prices, source_provider: 'bitstamp', source_channel: i % 5 === 0 ? 'r'.repeat(40) : 'rest', flag: i % 4 === 0 ? 'outlier' : null,
})
const aggregated = (i: number): AnyCandle => ({
  method: 'omm_vwap_v1', interval: '1h', base: 'ETH', quote: 'USD',
  close_ts: new Date(Date.UTC(1999, 11, 31) + i * 3_600_000).toISOString().replace('.000Z', 'Z'),
  ...prices, exchanges: i % 2 === 0 ? [] : ['bitstamp', 'kraken', 'ünï'], flag: null,
})

const encode = (kind: 'exchange' | 'aggregated', pages: AnyCandle[][], initialBytes: number) => {
  const w = new CopyBinaryWriter(kind, initialBytes)
  w.begin()
  for (const p of pages) w.add(p)
  return Buffer.from(w.finish())
}

describe('COPY binary encoding', () => {
  test.each(['exchange', 'aggregated'] as const)('the %s bytes are the same whatever size the buffer starts at: it grows at any point of a row', (kind) => {
    const make = kind === 'exchange' ? exchange : aggregated
    const pages = [0, 1, 2].map((p) => Array.from({ length: 7 }, (_, i) => make(p * 7 + i)))
    const reference = encode(kind, pages, 1 << 20)
    expect(reference.length).toBeGreaterThan(1000)
    for (let size = 1; size <= reference.length + 2; size++) expect(encode(kind, pages, size)).toEqual(reference)
  })

  test('a reused writer starts over: the second batch holds only its own rows', () => {
    const w = new CopyBinaryWriter('exchange', 64)
    w.begin()
    w.add([exchange(1), exchange(2), exchange(3)])
    w.finish()
    w.begin()
    w.add([exchange(4)])
    expect(Buffer.from(w.finish())).toEqual(encode('exchange', [[exchange(4)]], 1 << 16))
  })

  test('close_ts read by position is Date.parse of it, for any time from 1900 to 2200 and for impossible dates', () => {
    fc.assert(
      fc.property(fc.date({ min: new Date('1900-01-01T00:00:00Z'), max: new Date('2200-12-31T23:59:59Z'), noInvalidDate: true }), (d) => {
        const whole = d.toISOString().replace(/\.\d{3}Z$/, 'Z')
        expect(closeTsMs(whole)).toBe(Date.parse(whole))
        expect(closeTsMs(d.toISOString())).toBe(d.getTime())
      }),
      { numRuns: 2000 },
    )
    for (const odd of ['2023-02-29T00:00:00Z', '2024-02-30T00:00:00Z', '2024-04-31T12:00:00Z', '2024-13-01T00:00:00Z', '2024-01-01T24:00:00Z', '2024-01-01T23:60:00Z', '2024-1-01T00:00:00Z', '2024-01-01T00:00:00+01:00', '20x4-01-01T00:00:00Z']) {
      expect([odd, closeTsMs(odd)]).toEqual([odd, Date.parse(odd)])
    }
  })
})
