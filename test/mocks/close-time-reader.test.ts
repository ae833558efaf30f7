import { describe, expect, test } from 'vitest'
import { wholeSecondMs } from '../../mocks/core/fast-candle.js'
import { CloseTimeReader } from '../../mocks/data/export-files/close-time-reader.js'
import { RunBuilder } from '../../mocks/data/export-files/run-builder.js'

describe('load: close times read by day, columns grown and trimmed', () => {
  test('a close time read after another of its day equals wholeSecondMs; any other text is refused', () => {
    const texts = [
      '2025-01-01T00:00:00Z',
      '2025-01-01T23:59:59Z',
      '2025-01-01T24:00:00Z',
      '2025-01-01T12:60:00Z',
      '2025-01-01T12:00:60Z',
      '2025-01-01T1a:00:00Z',
      '2025-01-01T12-00:00Z',
      '2025-01-01T12:00:00z',
      '2025-01-01T12:00:00.000Z',
      '2025-01-02T00:00:00Z',
      '2025-02-29T00:00:00Z',
      '2024-02-29T00:00:00Z',
      '2024-02-29T06:30:00Z',
      '1969-12-31T23:59:00Z',
      '1969-12-31T23:00:00Z',
    ]
    const reader = new CloseTimeReader()
    for (const text of texts) expect([text, reader.of(text)]).toEqual([text, text.length === 20 ? wholeSecondMs(text) : undefined])
  })

  test('rows past the estimate grow the columns; a run keeps its rows in order', () => {
    const builder = new RunBuilder(2)
    for (let i = 0; i < 3000; i++) builder.push(i * 60_000, i, i + 2, i - 1, i + 1, 1, i, i % 3)
    const sources = [0, 1, 2].map((k) => ({ provider: `p${k}`, channel: 'rest', flag: null }))
    const run = builder.finish('x', '1m', 'BTC', 'USD', sources)
    expect(run.length).toBe(3000)
    expect(run.ts.length).toBe(3000)
    expect(run.at(2999)).toEqual({ t: 2999 * 60_000, candle: { exchange: 'x', interval: '1m', base: 'BTC', quote: 'USD', close_ts: '1970-01-03T01:59:00Z', open: 2999, high: 3001, low: 2998, close: 3000, base_volume: 1, quote_volume: 2999, source_provider: 'p2', source_channel: 'rest', flag: null } })
    expect(run.at(3000)).toBeUndefined()
  })
})
