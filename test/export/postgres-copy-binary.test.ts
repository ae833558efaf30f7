/**
 * The PostgreSQL sink's COPY binary encoder without a server (test/export/postgres.test.ts loads its
 * output into a real one): the bytes do not depend on where the buffer had to grow, and close_ts
 * is written as the instant the close-time module reads.
 */
import { describe, expect, test } from 'vitest'
import { CopyBinaryWriter } from '../../cli/export/sinks/postgres/postgres-copy-binary.js'
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

  test('close_ts is written as its instant, microseconds since 2000-01-01, whatever ISO 8601 form it came in', () => {
    const instant = (close_ts: string) => {
      const bytes = encode('exchange', [[{ ...exchange(1), close_ts }]], 1 << 10)
      const text = bytes.toString('latin1')
      // The row's close_ts field: its length (8), then the microseconds, after the four text fields.
      return bytes.subarray(text.indexOf('\0\0\0\x08', 19) + 4, text.indexOf('\0\0\0\x08', 19) + 12).readBigInt64BE()
    }
    const us = BigInt(Date.UTC(2024, 0, 1, 0, 1) - Date.UTC(2000, 0, 1)) * 1000n
    for (const form of ['2024-01-01T00:01:00Z', '2024-01-01T00:01:00+00:00', '2024-01-01T00:01:00.000000+00:00', '2024-01-01T01:01:00+01:00']) expect(instant(form), form).toBe(us)
  })

  test('a close_ts that is no instant throws instead of writing 2000-01-01', () => {
    expect(() => encode('exchange', [[{ ...exchange(1), close_ts: '2024-02-30T00:00:00Z' }]], 1 << 10)).toThrow('close_ts "2024-02-30T00:00:00Z" is not an ISO 8601 UTC datetime')
  })
})
