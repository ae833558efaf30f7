import { describe, expect, test } from 'vitest'
import { RunBuilder } from '../../../mocks/data/export-files/rows/run-builder.js'

describe('load: columns grown and trimmed', () => {
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
