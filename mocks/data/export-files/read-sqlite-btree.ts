import { INTERVAL_MS, isKnownInterval } from '../../../src/schemas/index.js'
import type { CandleSource, ExchangeColumns } from '../exchange-columns.js'
import { CloseTimeBytes } from './close-time-bytes.js'
import { RunBuilder } from './run-builder.js'
import { NotAsExpected, SqlitePageFile } from './sqlite-page-file.js'
import { cellAt, numberOf, pageCells, pageNumber, readVarint, serialSize, utf8, varint } from './sqlite-record.js'
import { MAX_DEPTH, readSqliteSchema } from './sqlite-schema.js'
import { EXCHANGE_TABLE } from './sqlite-tables.js'

/** The table's text in sqlite_master as the export creates it, blanks folded. */
const EXPECTED_SQL = fold(`CREATE TABLE ${EXCHANGE_TABLE}`)
/** exchange, interval, base, quote, close_ts (the primary key), 6 prices, source_provider, source_channel, flag. */
const COLUMNS = 14
/** A close_ts of 20 bytes of text: serial type 20 * 2 + 13. */
const CLOSE_TS_TYPE = 53

function fold(sql: string): string {
  return sql.replace(/\s+/g, ' ').trim()
}

/**
 * The fast path of `load` for an export's SQLite file, read straight from the file's b-tree pages
 * (no node:sqlite: each value node:sqlite hands to JS costs about as much as the candle): the same
 * {@link ExchangeColumns} as readSqliteColumns' query (series in key order, the sources shared and
 * numbered by first appearance), or undefined for anything not exactly as the export writes it
 * (another schema, aggregated rows, a `-wal` or `-journal` beside it, a value of another type, a
 * close_ts not in the service's form, a payload spilling to overflow pages, a corrupt page): the
 * caller then asks node:sqlite, which names any problem.
 *
 * exchange_candles is `WITHOUT ROWID`: an index b-tree whose entries are whole rows, the key's
 * columns first (here they are the first five declared), every cell of an interior page an entry
 * too (in order: a cell's left subtree, the cell, ..., the right-most subtree).
 */
export function readSqliteBtree(path: string): ExchangeColumns[] | undefined {
  let file: SqlitePageFile | undefined
  try {
    file = SqlitePageFile.open(path)
    if (file === undefined) return undefined
    const tables = readSqliteSchema(file)
    const exchange = tables.get('exchange_candles')
    if (exchange === undefined || exchange.type !== 'table' || typeof exchange.sql !== 'string' || fold(exchange.sql) !== EXPECTED_SQL || typeof exchange.rootpage !== 'number') return undefined
    const aggregated = tables.get('aggregated_candles')
    if (aggregated !== undefined && !(aggregated.type === 'table' && isEmptyTree(file, aggregated.rootpage))) return undefined
    return new ExchangeTreeReader(file).read(exchange.rootpage)
  } catch {
    return undefined
  } finally {
    try {
      file?.close()
    } catch {
      // closed or not, the answer stands
    }
  }
}

/** A root page that is a leaf without cells. */
function isEmptyTree(file: SqlitePageFile, root: unknown): boolean {
  if (typeof root !== 'number' || !(root >= 2)) return false
  const base = file.view(root)
  const { type, cells } = pageCells(file.window, base, 0, file.usable)
  return (type === 0x0a || type === 0x0d) && cells === 0
}

/** A page of an interior level, copied out of the file's window (its children's reads replace the window). */
interface OwnPage {
  b: Uint8Array
  data: DataView
}

class ExchangeTreeReader {
  private readonly usable: number
  /** The most of a payload an index page keeps on the page: X = (U - 12) * 64 / 255 - 23. */
  private readonly maxLocal: number
  private readonly visited: Uint8Array
  private readonly levels: OwnPage[] = []
  /** The depth of the first leaf met (every leaf of a b-tree lies at the same depth); -1 before. */
  private leafDepth = -1

  // The row being read: each column's serial type and where its value starts.
  private readonly types = new Int32Array(COLUMNS)
  private readonly offsets = new Int32Array(COLUMNS)

  // The series being read: its key as the record holds it (four serial types, then their bytes).
  private keyTypes = new Int32Array(4)
  private key = new Uint8Array(256)
  private keyLength = -1
  private run: RunBuilder | undefined
  private series: [string, string, string, string] = ['', '', '', '']
  private lastT = -Infinity
  private readonly times = new CloseTimeBytes()

  // The last row's source_provider, source_channel and flag as stored, and their entry in `sources`.
  private sourceTypes = new Int32Array(3)
  private sourceBytes = new Uint8Array(256)
  private sourceLength = -1
  private source = 0
  private readonly sources: CandleSource[] = []
  private readonly sourceIndex = new Map<string, number>()

  private readonly runs: ExchangeColumns[] = []

  // The descent to a series' last row: the tree's root, a page of its own, the close_ts last compared.
  private root = 0
  private readonly seekPage: OwnPage
  private seekCloseTs = -1
  private readonly seekTimes = new CloseTimeBytes()

  constructor(private readonly file: SqlitePageFile) {
    this.usable = file.usable
    this.maxLocal = Math.floor(((this.usable - 12) * 64) / 255) - 23
    this.visited = new Uint8Array(file.pageCount + 1)
    this.seekPage = ownPage(file.pageSize)
  }

  read(root: number): ExchangeColumns[] {
    this.root = root
    this.walk(root, 0)
    this.finishRun()
    return this.runs
  }

  private walk(pgno: number, depth: number): void {
    // Page 1 is sqlite_master's root: never a page of this tree.
    if (depth > MAX_DEPTH || !(pgno >= 2 && pgno <= this.file.pageCount) || this.visited[pgno] !== 0) throw new NotAsExpected()
    this.visited[pgno] = 1
    const usable = this.usable
    let b: Uint8Array
    let data: DataView
    let base: number
    if (depth === this.leafDepth) {
      // A leaf, by the depth of the first one: from the file's window (leaves lie mostly in file order).
      base = this.file.view(pgno)
      b = this.file.window
      data = this.file.windowData
    } else {
      // An interior page, read alone into its level's buffer: a window read for it would be wasted.
      const own = (this.levels[depth] ??= ownPage(this.file.pageSize))
      this.file.copy(pgno, own.b)
      base = 0
      b = own.b
      data = own.data
    }
    const { type, cells, pointers } = pageCells(b, base, 0, usable)
    if (type === 0x0a) {
      if (this.leafDepth < 0) this.leafDepth = depth
      for (let i = 0; i < cells; i++) this.row(b, data, base, cellAt(b, base, pointers, cells, i, usable))
      return
    }
    if (type !== 0x02) throw new NotAsExpected()
    if (b === this.file.window) {
      // Not at the leaves' depth after all (a tree this reader does not expect): its own copy.
      const own = (this.levels[depth] ??= ownPage(this.file.pageSize))
      own.b.set(b.subarray(base, base + this.file.pageSize))
      ;[b, data, base] = [own.b, own.data, 0]
    }
    for (let i = 0; i < cells; i++) {
      const off = cellAt(b, 0, pointers, cells, i, usable)
      if (off + 4 > usable) throw new NotAsExpected()
      this.walk(pageNumber(b, off), depth + 1)
      this.row(b, data, 0, off + 4)
    }
    this.walk(pageNumber(b, 8), depth + 1)
  }

  /** The entry (a whole row) whose cell starts `off` bytes into the page at `base`. */
  private row(b: Uint8Array, data: DataView, base: number, off: number): void {
    const end = base + this.usable
    let p = base + off
    let size = b[p]!
    if (size < 0x80) p++
    else {
      size = readVarint(b, p, end)
      p = varint.next
    }
    if (size > this.maxLocal || p + size > end) throw new NotAsExpected()
    const recordEnd = p + size
    let headerSize = b[p]!
    let q = p + 1
    if (headerSize >= 0x80) {
      headerSize = readVarint(b, p, recordEnd)
      q = varint.next
    }
    const headerEnd = p + headerSize
    if (headerEnd > recordEnd) throw new NotAsExpected()
    const types = this.types
    const offsets = this.offsets
    let body = headerEnd
    for (let c = 0; c < COLUMNS; c++) {
      if (q >= headerEnd) throw new NotAsExpected()
      let t = b[q]!
      if (t < 0x80) q++
      else {
        t = readVarint(b, q, headerEnd)
        q = varint.next
      }
      types[c] = t
      offsets[c] = body
      body += serialSize(t)
    }
    if (q !== headerEnd || body !== recordEnd) throw new NotAsExpected()

    // The series: the same bytes as the last row's key, or a new series.
    const keyStart = headerEnd
    const keyLength = offsets[4]! - keyStart
    const keyTypes = this.keyTypes
    const same = keyLength === this.keyLength && types[0] === keyTypes[0] && types[1] === keyTypes[1] && types[2] === keyTypes[2] && types[3] === keyTypes[3] && sameBytes(b, keyStart, this.key, keyLength)
    if (types[4] !== CLOSE_TS_TYPE) throw new NotAsExpected()
    const t = this.times.of(b, offsets[4]!)
    if (!same) this.startSeries(b, keyStart, keyLength, t)
    if (!(t > this.lastT)) throw new NotAsExpected()
    this.lastT = t

    const o = types[5] === 7 ? data.getFloat64(offsets[5]!) : numberOf(b, data, types[5]!, offsets[5]!)
    const h = types[6] === 7 ? data.getFloat64(offsets[6]!) : numberOf(b, data, types[6]!, offsets[6]!)
    const l = types[7] === 7 ? data.getFloat64(offsets[7]!) : numberOf(b, data, types[7]!, offsets[7]!)
    const c = types[8] === 7 ? data.getFloat64(offsets[8]!) : numberOf(b, data, types[8]!, offsets[8]!)
    const bv = types[9] === 7 ? data.getFloat64(offsets[9]!) : numberOf(b, data, types[9]!, offsets[9]!)
    const qv = types[10] === 7 ? data.getFloat64(offsets[10]!) : numberOf(b, data, types[10]!, offsets[10]!)

    // The source: decoded only when its bytes differ from the last row's.
    const sourceStart = offsets[11]!
    const sourceLength = recordEnd - sourceStart
    const sourceTypes = this.sourceTypes
    const sameSource = sourceLength === this.sourceLength && types[11] === sourceTypes[0] && types[12] === sourceTypes[1] && types[13] === sourceTypes[2] && sameBytes(b, sourceStart, this.sourceBytes, sourceLength)
    if (!sameSource) this.newSource(b, sourceStart, sourceLength)
    this.run!.push(t, o, h, l, c, bv, qv, this.source)
  }

  /**
   * A row whose key differs from the last row's: the next series, which must sort after it (the
   * key's order is the b-tree's), its four fields non-empty text as node:sqlite would hand them.
   * Its columns are sized as readSqliteColumns sizes them: from its first and last close time.
   */
  private startSeries(b: Uint8Array, keyStart: number, keyLength: number, first: number): void {
    const types = this.types
    for (let c = 0; c < 4; c++) if (types[c]! < 13 || types[c]! % 2 === 0) throw new NotAsExpected()
    if (this.keyLength >= 0 && compareKeys(b, keyStart, types, this.key, this.keyTypes) <= 0) throw new NotAsExpected()
    const texts = [0, 1, 2, 3].map((c) => utf8.decode(b.subarray(this.offsets[c]!, c < 3 ? this.offsets[c + 1]! : this.offsets[4]!))) as [string, string, string, string]
    // readSqliteColumns starts after ('', '', '', ''): a series of four empty texts is not read there.
    if (texts.every((s) => s === '')) throw new NotAsExpected()
    this.finishRun()
    if (this.key.length < keyLength) this.key = new Uint8Array(keyLength * 2)
    this.key.set(b.subarray(keyStart, keyStart + keyLength))
    this.keyLength = keyLength
    for (let c = 0; c < 4; c++) this.keyTypes[c] = types[c]!
    this.series = texts
    this.lastT = -Infinity
    const last = this.lastCloseTime()
    const interval = texts[1]
    const span = isKnownInterval(interval) ? (last - first) / INTERVAL_MS[interval] + 1 : NaN
    this.run = new RunBuilder(span >= 1 && span <= 1e8 ? Math.floor(span) : 1024)
  }

  private finishRun(): void {
    if (this.run === undefined) return
    const [exchange, interval, base, quote] = this.series
    this.runs.push(this.run.finish(exchange, interval, base, quote, this.sources))
    this.run = undefined
  }

  /** source_provider, source_channel (non-empty text) and flag (NULL or text) of a row whose bytes for them differ from the last row's. */
  private newSource(b: Uint8Array, start: number, length: number): void {
    const types = this.types
    const offsets = this.offsets
    if (types[11]! < 15 || types[11]! % 2 === 0 || types[12]! < 15 || types[12]! % 2 === 0 || (types[13] !== 0 && (types[13]! < 13 || types[13]! % 2 === 0))) throw new NotAsExpected()
    // A control character: json_array and JSON.stringify might spell it apart, and readSqliteColumns
    // interns by that text; node:sqlite decides such a file.
    for (let i = start; i < start + length; i++) if (b[i]! < 0x20) throw new NotAsExpected()
    const provider = utf8.decode(b.subarray(offsets[11]!, offsets[12]!))
    const channel = utf8.decode(b.subarray(offsets[12]!, offsets[13]!))
    const flag = types[13] === 0 ? null : utf8.decode(b.subarray(offsets[13]!, start + length))
    const key = JSON.stringify([provider, channel, flag])
    let k = this.sourceIndex.get(key)
    if (k === undefined) this.sourceIndex.set(key, (k = this.sources.push({ provider, channel, flag }) - 1))
    this.source = k
    if (this.sourceBytes.length < length) this.sourceBytes = new Uint8Array(length * 2)
    this.sourceBytes.set(b.subarray(start, start + length))
    this.sourceLength = length
    for (let c = 0; c < 3; c++) this.sourceTypes[c] = types[11 + c]!
  }

  /**
   * The close time of the series' last row (epoch ms; NaN when it is not in the service's form),
   * found by a descent from the root: per level, the first cell whose key sorts after the series';
   * the cell before it, when of this series, is the last row so far, and a deeper one beats it.
   */
  private lastCloseTime(): number {
    const own = this.seekPage
    const b = own.b
    const key = this.key
    const keyTypes = this.keyTypes
    const usable = this.usable
    let pgno = this.root
    let best = NaN
    for (let depth = 0; ; depth++) {
      if (depth > MAX_DEPTH) throw new NotAsExpected()
      this.file.copy(pgno, b)
      const { type, cells, pointers } = pageCells(b, 0, 0, usable)
      const interior = type === 0x02
      if (!interior && type !== 0x0a) throw new NotAsExpected()
      // Binary search: cells before `lo` sort at or before the series, cells from `lo` after it.
      let lo = 0
      let hi = cells
      while (lo < hi) {
        const mid = (lo + hi) >>> 1
        const cell = cellAt(b, 0, pointers, cells, mid, usable) + (interior ? 4 : 0)
        if (this.seekCompare(b, cell, key, keyTypes) <= 0) lo = mid + 1
        else hi = mid
      }
      if (lo > 0) {
        const cell = cellAt(b, 0, pointers, cells, lo - 1, usable) + (interior ? 4 : 0)
        if (this.seekCompare(b, cell, key, keyTypes) === 0) best = this.seekCloseTs >= 0 ? this.seekTimes.of(b, this.seekCloseTs) : NaN
      }
      if (!interior) return best
      const next = lo < cells ? cellAt(b, 0, pointers, cells, lo, usable) : 8
      if (next + 4 > usable) throw new NotAsExpected()
      pgno = pageNumber(b, next)
    }
  }

  /** The key of the entry whose cell (its payload size first) is at `off` of `b`, against the series' key; the close_ts's offset left in seekCloseTs (-1 when it is not 20 bytes of text). */
  private seekCompare(b: Uint8Array, off: number, key: Uint8Array, keyTypes: Int32Array): number {
    const end = this.usable
    const size = readVarint(b, off, end)
    const p = varint.next
    if (size > this.maxLocal || p + size > end) throw new NotAsExpected()
    const recordEnd = p + size
    const headerSize = readVarint(b, p, recordEnd)
    let q = varint.next
    const headerEnd = p + headerSize
    if (headerEnd > recordEnd) throw new NotAsExpected()
    const types = [0, 0, 0, 0, 0]
    for (let c = 0; c < 5; c++) {
      types[c] = readVarint(b, q, headerEnd)
      q = varint.next
    }
    let body = headerEnd
    let at = 0
    for (let c = 0; c < 4; c++) {
      const t = types[c]!
      if (t < 13 || t % 2 === 0) throw new NotAsExpected()
      const n = serialSize(t)
      const m = serialSize(keyTypes[c]!)
      if (body + n > recordEnd) throw new NotAsExpected()
      const d = compareBytes(b, body, n, key, at, m)
      if (d !== 0) return d
      body += n
      at += m
    }
    this.seekCloseTs = types[4] === CLOSE_TS_TYPE && body + 20 <= recordEnd ? body : -1
    return 0
  }
}

function ownPage(size: number): OwnPage {
  const b = new Uint8Array(size)
  return { b, data: new DataView(b.buffer) }
}

/** Bytes `[a, a + n)` of `x` against `[c, c + m)` of `y` as SQLite's BINARY collation orders text: memcmp, then the length. */
function compareBytes(x: Uint8Array, a: number, n: number, y: Uint8Array, c: number, m: number): number {
  const k = Math.min(n, m)
  for (let i = 0; i < k; i++) {
    const d = x[a + i]! - y[c + i]!
    if (d !== 0) return d
  }
  return n - m
}

/** The key (four texts) at `start` of `b`, of serial types `types`, against a saved key: negative, 0 or positive. */
function compareKeys(b: Uint8Array, start: number, types: Int32Array, key: Uint8Array, keyTypes: Int32Array): number {
  let a = start
  let c = 0
  for (let i = 0; i < 4; i++) {
    const n = serialSize(types[i]!)
    const m = serialSize(keyTypes[i]!)
    const d = compareBytes(b, a, n, key, c, m)
    if (d !== 0) return d
    a += n
    c += m
  }
  return 0
}

/** Whether `length` bytes of `b` from `start` are those kept from the last row. */
function sameBytes(b: Uint8Array, start: number, kept: Uint8Array, length: number): boolean {
  for (let i = 0; i < length; i++) if (b[start + i] !== kept[i]) return false
  return true
}
