import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, describe, expect, test } from 'vitest'
import type { Series } from '../../../cli/export/plan/series.js'
import { columnsOf, type Kind } from '../../../cli/export/sinks/columns.js'
import { openSink, type AnyCandle } from '../../../cli/export/sinks/index.js'
import { loadSqlite } from '../../../cli/export/sinks/sqlite/load-sqlite.js'
import type { AggregatedCandle } from '../../../src/index.js'
import { useReferencePages } from '../reference-pages.js'

// SQLite rows bind a value shared by every row of a statement once; every row must still hold its own values.
const pages = useReferencePages()
const dir = mkdtempSync(join(tmpdir(), 'export-sqlite-rows-'))
const series: Series = { kind: 'exchange', source: 'bitstamp', interval: '1m', base: 'BTC', quote: 'USD', first: 0, last: 0 }

afterAll(() => rmSync(dir, { recursive: true, force: true }))

async function storedRows(kind: Kind, pages: readonly AnyCandle[][]): Promise<Record<string, unknown>[]> {
  const path = join(dir, `${kind}-${Math.random().toString(36).slice(2)}.sqlite`)
  const sink = await openSink(path, 'sqlite', kind, [series], process.stdout)
  for (const page of pages) await sink.write(series, page)
  await sink.close()
  const { DatabaseSync } = await loadSqlite()
  const db = new DatabaseSync(path, { readOnly: true })
  try {
    const table = kind === 'exchange' ? 'exchange_candles' : 'aggregated_candles'
    return db.prepare(`SELECT ${columnsOf(kind).join(', ')} FROM ${table} ORDER BY close_ts`).all() as Record<string, unknown>[]
  } finally {
    db.close()
  }
}

const asRow = (kind: Kind, c: AnyCandle) => {
  const row: Record<string, unknown> = { ...c }
  if (kind === 'aggregated') row.exchanges = JSON.stringify((c as AggregatedCandle).exchanges)
  return row
}

describe('a SQLite export stores every field of every candle as the API gave it', () => {
  test('pages of the reference service, of every length a walk may end with, row for row', async () => {
    expect(pages.exchange.length).toBe(1000)
    for (const [kind, page] of [['exchange', pages.exchange], ['aggregated', pages.aggregated]] as const) {
      // 1000 = 4 x 250; 263 = 250 + 10 + 3 x 1; 61 = 50 + 10 + 1; 7 = 7 x 1.
      const pages = [page.slice(0, 263), page.slice(263, 270), page.slice(270, 331), page.slice(331)]
      expect(await storedRows(kind, pages)).toEqual(page.map((c) => asRow(kind, c)))
    }
  })

  test('a field whose value changes from row to row (source, flag, exchanges) is stored per row, never the first row\'s value', async () => {
    const exchange = pages.exchange.map((c, i) => ({
      ...c,
      source_provider: i % 3 === 0 ? c.source_provider : `provider-${i % 5}`,
      source_channel: i === 999 ? 'rest' : c.source_channel,
      flag: i % 250 === 249 ? 'partial' : null,
    })) as unknown as AnyCandle[]
    expect(await storedRows('exchange', [exchange])).toEqual(exchange.map((c) => asRow('exchange', c)))
    const aggregated = pages.aggregated.map((c, i) => ({
      ...c,
      exchanges: i % 7 === 0 ? ['bitstamp'] : i % 11 === 0 ? [...c.exchanges, 'zz'] : c.exchanges,
      flag: i === 0 ? 'stale' : c.flag,
    })) as unknown as AnyCandle[]
    expect(await storedRows('aggregated', [aggregated])).toEqual(aggregated.map((c) => asRow('aggregated', c)))
  })

  test('a row already stored is left as it is: writing a page again stores nothing twice', async () => {
    const page = pages.exchange.slice(0, 300) as unknown as AnyCandle[]
    expect(await storedRows('exchange', [page, page, page.slice(100, 200)])).toEqual(page.map((c) => asRow('exchange', c)))
  })
})
