import { closeSync, openSync, readSync, writeSync } from 'node:fs'
import type { Writable } from 'node:stream'
import type { Series } from '../../plan/series.js'
import { columnsOf, type Kind } from '../columns.js'
import { csvHeader, csvLines, parseCsvLine } from './csv-format.js'
import { OutputError, plannedSeriesKey, seriesKey, type AnyCandle, type Sink } from '../sink.js'
import { cutPartialLastLine, scanLinesBackward } from './tail-lines.js'
import { parseTimestamp } from '../../../../src/contract/close-time.js'

/** A line-per-candle format: CSV or JSON Lines. */
interface LineFormat {
  name: string
  header: string | undefined
  lines(candles: readonly AnyCandle[]): string
  /** The series key and close_ts of a stored line; throws when the line is not one of ours. */
  read(line: string): { key: string; closeTs: string }
  /** CSV: a quoted field may hold line breaks, so a record can span lines. */
  quoted: boolean
}

function csvFormat(kind: Kind): LineFormat {
  const columns = columnsOf(kind)
  return {
    name: 'CSV',
    header: csvHeader(kind),
    quoted: true,
    lines: (candles) => csvLines(kind, candles),
    read(line) {
      const f = parseCsvLine(line)
      if (f.length !== columns.length) throw new Error(`${f.length} fields, expected ${columns.length}`)
      return { key: seriesKey(f[0]!, f[1]!, f[2]!, f[3]!), closeTs: f[4]! }
    },
  }
}

function jsonlFormat(kind: Kind): LineFormat {
  const sourceField = kind === 'exchange' ? 'exchange' : 'method'
  return {
    name: 'JSON Lines',
    header: undefined,
    quoted: false,
    // One candle object per line, the API's fields in the API's order.
    lines: (candles) => {
      let out = ''
      for (const c of candles) out += JSON.stringify(c) + '\n'
      return out
    },
    read(line) {
      const c = JSON.parse(line) as Record<string, unknown>
      const parts = [c[sourceField], c.interval, c.base, c.quote, c.close_ts]
      if (!parts.every((p) => typeof p === 'string')) throw new Error(`not ${kind === 'exchange' ? 'an exchange' : 'an aggregated'} candle`)
      return { key: seriesKey(...(parts.slice(0, 4) as [string, string, string, string])), closeTs: parts[4] as string }
    },
  }
}

/** The line format of an output format and candle kind. */
export function lineFormat(format: 'csv' | 'jsonl', kind: Kind): LineFormat {
  return format === 'csv' ? csvFormat(kind) : jsonlFormat(kind)
}

/**
 * CSV or JSON Lines in a file, appended to. Opening cuts an unfinished last line, checks the header,
 * and reads the file backward from its end only until the last candle of every planned series is
 * found (a single-series file costs one line).
 */
export function openLineFile(path: string, format: LineFormat, planned: readonly Series[]): Sink {
  let fd: number
  try {
    fd = openSync(path, 'a+')
  } catch (error) {
    throw new OutputError(`cannot open ${path}: ${(error as Error).message}`)
  }
  const last = new Map<string, number>()
  try {
    let size = cutPartialLastLine(fd, format.quoted)
    let floor = 0
    if (format.header !== undefined) {
      if (size === 0) {
        writeSync(fd, format.header)
        size = Buffer.byteLength(format.header)
      } else {
        const head = Buffer.alloc(Math.min(size, Buffer.byteLength(format.header)))
        readSync(fd, head, 0, head.length, 0)
        if (head.toString('utf8') !== format.header) {
          throw new OutputError(`${path} does not start with the header this export writes (${format.header.trim()}): it holds other data, or the other kind of candles; choose another --out`)
        }
      }
      floor = Buffer.byteLength(format.header)
    }
    const wanted = new Set(planned.map(plannedSeriesKey))
    let lineNo = 0
    scanLinesBackward(fd, size, floor, (line) => {
      lineNo++
      let entry
      try {
        entry = format.read(line)
      } catch (error) {
        throw new OutputError(`${path} is not a ${format.name} file of this export (line ${lineNo} from the end: ${(error as Error).message}); choose another --out`)
      }
      // Later lines of a series come later in the file: the first met from the end is its last.
      if (wanted.has(entry.key) && !last.has(entry.key)) last.set(entry.key, parseTimestamp(entry.closeTs))
      return last.size === wanted.size
    }, format.quoted)
  } catch (error) {
    closeSync(fd)
    throw error
  }
  let scratch = Buffer.allocUnsafeSlow(512 * 1024)
  return {
    lastStored: (series) => last.get(plannedSeriesKey(series)),
    write(_series, candles) {
      // One write per page: a kill leaves at most one unfinished line, cut at the next start.
      const text = format.lines(candles)
      // Encoded into one buffer kept from page to page: a new one per page left the allocator's
      // heap fragmented on a long run (RSS up by tens of MB over 2 M candles).
      let length = scratch.write(text)
      while (length > scratch.length - 4) {
        scratch = Buffer.allocUnsafeSlow(scratch.length * 2)
        length = scratch.write(text)
      }
      for (let off = 0; off < length; ) off += writeSync(fd, scratch, off, length - off)
    },
    close: async () => closeSync(fd),
  }
}

/** CSV or JSON Lines to a stream (stdout): nothing to resume from; waits when the reader is slow. */
export function openLineStream(stream: Writable, format: LineFormat): Sink {
  let failure: Error | undefined
  stream.on('error', (error) => (failure = error))
  const put = (text: string): Promise<void> | void => {
    if (failure) throw failure
    if (stream.write(text)) return
    return new Promise<void>((resolve, reject) => {
      const done = () => {
        stream.off('drain', done)
        stream.off('error', done)
        failure ? reject(failure) : resolve()
      }
      stream.on('drain', done)
      stream.on('error', done)
    })
  }
  let headerDue = format.header !== undefined
  return {
    lastStored: () => undefined,
    write(_series, candles) {
      const text = (headerDue ? format.header! : '') + format.lines(candles)
      headerDue = false
      return put(text)
    },
    close: async () => {
      if (headerDue) await put(format.header!)
      if (failure) throw failure
    },
  }
}
