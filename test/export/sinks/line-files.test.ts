import { closeSync, mkdtempSync, openSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, describe, expect, test } from 'vitest'
import { csvHeader, csvLines, parseCsvLine } from '../../../cli/export/sinks/lines/csv-format.js'
import { cutPartialLastLine, scanLinesBackward } from '../../../cli/export/sinks/lines/tail-lines.js'

const dir = mkdtempSync(join(tmpdir(), 'export-lines-'))
afterAll(() => rmSync(dir, { recursive: true, force: true }))

function withFile<T>(text: string, body: (fd: number, path: string) => T): T {
  const path = join(dir, `f${Math.random().toString(36).slice(2)}`)
  writeFileSync(path, text)
  const fd = openSync(path, 'r+')
  try {
    return body(fd, path)
  } finally {
    closeSync(fd)
  }
}

describe('resume reads files backward from the end', () => {
  // Lines of unequal lengths, several crossing the 64 KB chunk boundaries.
  const lines = Array.from({ length: 5000 }, (_, i) => `line ${i} ${'x'.repeat((i * 37) % 90)} é`)
  const text = lines.join('\n') + '\n'

  test('every complete line is visited once, newest first, across chunk boundaries', () => {
    const seen = withFile(text, (fd) => {
      const out: string[] = []
      scanLinesBackward(fd, Buffer.byteLength(text), 0, (l) => (out.push(l), false))
      return out
    })
    expect(seen).toEqual([...lines].reverse())
  })

  test('the scan stops as soon as the visitor says so, and lines below the floor are never read', () => {
    const header = 'header\n'
    const seen = withFile(header + text, (fd) => {
      const out: string[] = []
      scanLinesBackward(fd, Buffer.byteLength(header + text), header.length, (l) => (out.push(l), out.length === 3))
      return out
    })
    expect(seen).toEqual([lines[4999], lines[4998], lines[4997]])
    const all = withFile(header + text, (fd) => {
      const out: string[] = []
      scanLinesBackward(fd, Buffer.byteLength(header + text), header.length, (l) => (out.push(l), false))
      return out
    })
    expect(all).not.toContain('header')
    expect(all).toHaveLength(5000)
  })

  test.each([
    ['a\nb\nhalf a li', 'a\nb\n'],
    ['a\nb\n', 'a\nb\n'],
    ['no newline at all', ''],
    ['', ''],
  ])('an unfinished last line is cut: %j → %j', (before, after) => {
    withFile(before, (fd, path) => {
      expect(cutPartialLastLine(fd)).toBe(after.length)
      expect(readFileSync(path, 'utf8')).toBe(after)
    })
  })

  test('an unfinished line longer than one read chunk is cut too', () => {
    const long = 'ok\n' + 'y'.repeat(200_000)
    withFile(long, (fd, path) => {
      expect(cutPartialLastLine(fd)).toBe(3)
      expect(readFileSync(path, 'utf8')).toBe('ok\n')
    })
  })
})

describe('CSV resume: a quoted field may hold line breaks, so a record is not a line', () => {
  // Records of unequal lengths with quoted line breaks, quotes and commas, across the 64 KB chunks.
  const records = Array.from({ length: 3000 }, (_, i) =>
    i % 3 === 0 ? `r${i},"a\nb ""q"", c\r\n${'z'.repeat((i * 53) % 150)}",é` : `r${i},"plain, ${'x'.repeat((i * 37) % 90)}",\n`.trimEnd(),
  )
  const text = records.join('\n') + '\n'

  test('every complete record is visited once and whole, newest first, breaks inside quotes kept', () => {
    const seen = withFile(text, (fd) => {
      const out: string[] = []
      scanLinesBackward(fd, Buffer.byteLength(text), 0, (l) => (out.push(l), false), true)
      return out
    })
    expect(seen).toEqual([...records].reverse())
  })

  test.each([
    ['h\na,"x\ny"\nb,"unfinished\nfield', 'h\na,"x\ny"\n'],
    ['h\na,"x\ny"\nb,"finished"', 'h\na,"x\ny"\n'],
    ['h\na,"x\ny"\n', 'h\na,"x\ny"\n'],
    ['h\na,"x\n', 'h\n'],
  ])('an unfinished last record is cut, even where it stops after a quoted line break: %j → %j', (before, after) => {
    withFile(before, (fd, path) => {
      expect(cutPartialLastLine(fd, true)).toBe(Buffer.byteLength(after))
      expect(readFileSync(path, 'utf8')).toBe(after)
    })
  })
})

describe('CSV: RFC 4180 quoting, read back field for field', () => {
  test('a comma, a quote or a line break quotes the field; null is empty; arrays are JSON text', () => {
    const candle = {
      method: 'omm,"v"',
      interval: '1h',
      base: 'BTC',
      quote: 'USD',
      close_ts: '2024-01-01T00:00:00Z',
      open: 1.5,
      high: 2,
      low: 1e-7,
      close: 1.75,
      base_volume: 0,
      quote_volume: 12345678.12345678,
      exchanges: ['bitstamp', 'ftx'],
      flag: null,
    }
    const line = csvLines('aggregated', [candle]).trimEnd()
    expect(line).toBe('"omm,""v""",1h,BTC,USD,2024-01-01T00:00:00Z,1.5,2,1e-7,1.75,0,12345678.12345678,"[""bitstamp"",""ftx""]",')
    expect(parseCsvLine(line)).toEqual(['omm,"v"', '1h', 'BTC', 'USD', '2024-01-01T00:00:00Z', '1.5', '2', '1e-7', '1.75', '0', '12345678.12345678', '["bitstamp","ftx"]', ''])
    expect(csvHeader('exchange')).toBe('exchange,interval,base,quote,close_ts,open,high,low,close,base_volume,quote_volume,source_provider,source_channel,flag\n')
  })

  test('each row carries its own series and source fields, quoted, when they change from row to row', () => {
    const row = (exchange: string, channel: string, flag: string | null) => ({
      exchange, interval: '1m', base: 'BTC', quote: 'USD', close_ts: '2024-01-01T00:00:00Z',
      open: 1, high: 1, low: 1, close: 1, base_volume: 0, quote_volume: 0, source_provider: 'p', source_channel: channel, flag,
    })
    const rows = [row('a', 'ws', null), row('a', 'ws', 'late'), row('b,c', 'ws', null), row('b,c', 'r"est', null), row('a', 'ws', null)]
    const lines = csvLines('exchange', rows).trimEnd().split('\n').map(parseCsvLine)
    expect(lines.map((f) => [f[0], f[12], f[13]])).toEqual([['a', 'ws', ''], ['a', 'ws', 'late'], ['b,c', 'ws', ''], ['b,c', 'r"est', ''], ['a', 'ws', '']])
  })
})
