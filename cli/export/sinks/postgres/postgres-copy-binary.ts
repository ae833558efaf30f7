import { parseTimestamp } from '../../../../src/contract/close-time.js'
import type { Kind } from '../columns.js'
import type { AnyCandle } from '../sink.js'

// COPY's binary format: a signature, flags and a header extension length; then per row a field count
// and per field a byte length (-1: NULL) and the value in the type's binary form; then -1.
const SIGNATURE = Buffer.from('PGCOPY\n\xff\r\n\0', 'latin1')
const TEXT_OID = 25
// timestamptz is microseconds since 2000-01-01T00:00:00Z.
const PG_EPOCH_MS = Date.UTC(2000, 0, 1)
const TWO_32 = 2 ** 32

/**
 * COPY binary data of one or more pages, appended into one buffer kept from batch to batch (a new
 * 256 KB buffer per page was garbage the collector then paid for). Columns in EXCHANGE_COLUMNS /
 * AGGREGATED_COLUMNS order, for tables of exactly the types ensureTable checks (text, timestamptz,
 * double precision, text[]). Doubles go as their 8 bytes and close_ts as microseconds: no number is
 * turned into text here and parsed back on the server.
 */
export class CopyBinaryWriter {
  private buf: Buffer
  private view: DataView
  private at = 0

  constructor(
    private readonly kind: Kind,
    initialBytes = 1 << 20,
  ) {
    this.buf = Buffer.allocUnsafe(initialBytes)
    this.view = new DataView(this.buf.buffer, this.buf.byteOffset, this.buf.byteLength)
  }

  /** Starts new data (the buffer of the last `finish()` is overwritten from here on). */
  begin(): void {
    this.at = 0
    this.room(SIGNATURE.length + 8)
    this.at += SIGNATURE.copy(this.buf, 0)
    this.int32(0) // flags
    this.int32(0) // header extension length
  }

  /** Appends the rows of one page. */
  add(candles: readonly AnyCandle[]): void {
    if (this.kind === 'exchange') {
      for (const c of candles as ReadonlyArray<Extract<AnyCandle, { exchange: string }>>) {
        this.int16(14)
        this.text(c.exchange)
        this.text(c.interval)
        this.text(c.base)
        this.text(c.quote)
        this.prices(c)
        this.text(c.source_provider)
        this.text(c.source_channel)
        this.textOrNull(c.flag)
      }
    } else {
      for (const c of candles as ReadonlyArray<Extract<AnyCandle, { method: string }>>) {
        this.int16(13)
        this.text(c.method)
        this.text(c.interval)
        this.text(c.base)
        this.text(c.quote)
        this.prices(c)
        this.textArray(c.exchanges)
        this.textOrNull(c.flag)
      }
    }
  }

  /** Ends the data; the bytes stay valid until the next `begin()`. */
  finish(): Buffer {
    this.int16(-1)
    return this.buf.subarray(0, this.at)
  }

  /** Bytes written since `begin()`. */
  get length(): number {
    return this.at
  }

  /** Drops what was written after `length` (a page that failed half-way). */
  truncate(length: number): void {
    this.at = Math.min(this.at, length)
  }

  private room(bytes: number): void {
    if (this.at + bytes <= this.buf.length) return
    const bigger = Buffer.allocUnsafe(Math.max(this.buf.length * 2, this.at + bytes))
    this.buf.copy(bigger, 0, 0, this.at)
    this.buf = bigger
    this.view = new DataView(bigger.buffer, bigger.byteOffset, bigger.byteLength)
  }

  private int16(v: number): void {
    this.room(2)
    this.view.setInt16(this.at, v)
    this.at += 2
  }

  private int32(v: number): void {
    this.room(4)
    this.view.setInt32(this.at, v)
    this.at += 4
  }

  // close_ts and the six doubles: 7 fields of 12 bytes.
  private prices(c: AnyCandle): void {
    this.room(PRICES_BYTES)
    const v = this.view
    const at = this.at
    const ms = parseTimestamp(c.close_ts)
    // Never a silent 2000-01-01: the SDK hands close times on canonical, so this is a bug upstream.
    if (Number.isNaN(ms)) throw new Error(`close_ts ${JSON.stringify(c.close_ts)} is not an ISO 8601 UTC datetime`)
    const us = (ms - PG_EPOCH_MS) * 1000
    const high = Math.floor(us / TWO_32)
    v.setInt32(at, 8)
    v.setInt32(at + 4, high)
    v.setUint32(at + 8, us - high * TWO_32)
    float8(v, at + 12, c.open)
    float8(v, at + 24, c.high)
    float8(v, at + 36, c.low)
    float8(v, at + 48, c.close)
    float8(v, at + 60, c.base_volume)
    float8(v, at + 72, c.quote_volume)
    this.at = at + PRICES_BYTES
  }

  private text(s: string): void {
    const n = s.length
    // A UTF-8 byte is at most 3 per UTF-16 unit; the length goes in front once known.
    this.room(4 + n * 3)
    const buf = this.buf
    const start = this.at + 4
    // Short ASCII text (exchange, pair, interval...) byte by byte: cheaper than a call into the encoder.
    let i = 0
    if (n <= 32) {
      for (; i < n; i++) {
        const ch = s.charCodeAt(i)
        if (ch >= 0x80) break
        buf[start + i] = ch
      }
    }
    const bytes = i === n ? n : buf.write(s, start, 'utf8')
    this.view.setInt32(this.at, bytes)
    this.at = start + bytes
  }

  private textOrNull(s: string | null): void {
    if (s == null) this.int32(-1)
    else this.text(s)
  }

  private textArray(values: readonly string[]): void {
    const start = this.at
    this.int32(0) // the length, filled in below
    this.int32(values.length === 0 ? 0 : 1) // dimensions
    this.int32(0) // no NULL elements
    this.int32(TEXT_OID)
    if (values.length > 0) {
      this.int32(values.length)
      this.int32(1) // lower bound
      for (const v of values) this.text(v)
    }
    this.view.setInt32(start, this.at - start - 4)
  }
}

function float8(v: DataView, at: number, x: number): void {
  v.setInt32(at, 8)
  v.setFloat64(at + 4, x)
}

// close_ts and six doubles, each with its length.
const PRICES_BYTES = 7 * 12

/** One page as COPY binary data in a buffer of its own. */
export function copyBinary(kind: Kind, candles: readonly AnyCandle[]): Buffer {
  const w = new CopyBinaryWriter(kind, 256 * 1024)
  w.begin()
  w.add(candles)
  return w.finish()
}
