import { mkdirSync, mkdtempSync, readFileSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, describe, expect, test } from 'vitest'
import { decodePage, encodePage } from '../../../cli/export/sink-thread/page-columns.js'
import { openThreadedSink } from '../../../cli/export/sink-thread/index.js'
import type { Series } from '../../../cli/export/plan/series.js'
import { OutputError, openSink, type AnyCandle } from '../../../cli/export/sinks/index.js'
import type { ExchangeCandle } from '../../../src/index.js'
import { useReferencePages } from '../reference-pages.js'

// The export writes a file or database on a thread of its own; a page crosses as columns.
const pages = useReferencePages()
const dir = mkdtempSync(join(tmpdir(), 'export-sink-thread-'))
const series: Series = { kind: 'exchange', source: 'bitstamp', interval: '1m', base: 'BTC', quote: 'USD', first: 0, last: 0 }

afterAll(() => rmSync(dir, { recursive: true, force: true }))

/** What the sink's thread gets: the page encoded, cloned as postMessage clones it, decoded. */
function acrossThreads(kind: 'exchange' | 'aggregated', candles: readonly AnyCandle[]): AnyCandle[] {
  const { page, transfer } = encodePage(kind, candles)
  return decodePage(kind, structuredClone(page, { transfer }))
}

describe('a page written on the output thread is the page fetched', () => {
  test('every field of every candle arrives with its value, in the order the API writes them (exchange and aggregated pages of the reference service)', () => {
    expect(pages.exchange).toHaveLength(1000)
    expect(pages.aggregated.length).toBeGreaterThan(100)
    for (const [kind, page] of [['exchange', pages.exchange], ['aggregated', pages.aggregated]] as const) {
      const got = acrossThreads(kind, page)
      expect(got).toEqual(page)
      expect(got.map((c) => JSON.stringify(c))).toEqual(page.map((c) => JSON.stringify(c)))
    }
  })

  test('values that differ within a page, strings with line breaks or a NUL, null and string flags, -0 and extreme numbers come through unchanged', () => {
    const base = pages.exchange.slice(0, 6)
    const odd: ExchangeCandle[] = base.map((c, i) => ({
      ...c,
      exchange: i === 2 ? 'other\nexchange' : c.exchange,
      source_channel: ['a', 'b,c', '"q"', 'line\nbreak', 'é', ''][i]!,
      flag: i % 2 === 0 ? null : 'late',
      source_provider: i === 4 ? '\u0000' : c.source_provider,
      open: [-0, Number.MAX_VALUE, Number.MIN_VALUE, 1e21, -1e-7, 0.1 + 0.2][i]!,
    }))
    const got = acrossThreads('exchange', odd)
    expect(got).toEqual(odd)
    expect(Object.is(got[0]!.open, -0)).toBe(true)
  })

  test('a candle that breaks the shape (a price that is not a number) still arrives as it was, as an object', () => {
    const broken = pages.exchange.slice(0, 3).map((c, i) => (i === 1 ? { ...c, close: '1.5' as unknown as number } : c))
    const { page, transfer } = encodePage('exchange', broken)
    expect(transfer).toHaveLength(0)
    expect(decodePage('exchange', structuredClone(page))).toEqual(broken)
  })

  test('a page crosses as columns: a few strings and one moved buffer, not a thousand objects', () => {
    const { page, transfer } = encodePage('exchange', pages.exchange)
    expect('numbers' in page).toBe(true)
    expect(transfer).toHaveLength(1)
    // The series' exchange, interval, pair and source are one value each; close_ts is one string.
    const { same, values } = page as Extract<typeof page, { same: unknown[] }>
    expect(same.slice(0, 4)).toEqual(['bitstamp', '1m', 'BTC', 'USD'])
    expect(values.filter((v) => v !== undefined).every((v) => typeof v === 'string')).toBe(true)
  })
})

describe('the output thread keeps the sink rules', () => {
  test('an output that cannot be opened fails with the same message as on the export thread', async () => {
    const path = join(dir, 'a-directory')
    mkdirSync(path)
    const inline = await openSink(path, 'sqlite', 'exchange', [series], process.stdout).catch((e: unknown) => e)
    const threaded = await openThreadedSink(path, 'sqlite', 'exchange', [series]).catch((e: unknown) => e)
    expect(inline).toBeInstanceOf(OutputError)
    expect(threaded).toBeInstanceOf(OutputError)
    expect((threaded as Error).message).toBe((inline as Error).message)
  })

  test('every page is stored whole and in order, and the next run resumes after the last stored candle', async () => {
    const path = join(dir, 'pages.jsonl')
    const sink = await openThreadedSink(path, 'jsonl', 'exchange', [series])
    expect(sink.lastStored(series)).toBeUndefined()
    // Sent without waiting: the thread writes them one at a time, in the order sent.
    await Promise.all([sink.write(series, pages.exchange.slice(0, 400)), sink.write(series, pages.exchange.slice(400, 1000))])
    await sink.close()
    const lines = readFileSync(path, 'utf8').trimEnd().split('\n')
    expect(lines).toEqual(pages.exchange.map((c) => JSON.stringify(c)))
    const again = await openThreadedSink(path, 'jsonl', 'exchange', [series])
    expect(again.lastStored(series)).toBe(Date.parse(pages.exchange.at(-1)!.close_ts))
    await again.close()
  })

  test('a write that fails rejects with its error, and no later page is written after the missing one', async () => {
    // /dev/full takes the open and refuses every write (ENOSPC).
    const sink = await openThreadedSink('/dev/full', 'jsonl', 'exchange', [series])
    const first = await Promise.resolve(sink.write(series, pages.exchange.slice(0, 10))).catch((e: unknown) => e)
    expect((first as NodeJS.ErrnoException).code).toBe('ENOSPC')
    const second = await Promise.resolve(sink.write(series, pages.exchange.slice(10, 20))).catch((e: unknown) => e)
    expect((second as Error).message).toBe((first as Error).message)
    await sink.close()
  })
})
