import type { Kind } from './columns.js'
import type { AnyCandle } from './sink.js'

// COPY's binary format: a signature, flags and a header extension length; then per row a field count
// and per field a byte length (-1: NULL) and the value in the type's binary form; then -1.
const SIGNATURE = Buffer.from('PGCOPY\n\xff\r\n\0', 'latin1')
const TEXT_OID = 25
// timestamptz is microseconds since 2000-01-01T00:00:00Z.
const PG_EPOCH_MS = Date.UTC(2000, 0, 1)
const TWO_32 = 2 ** 32

/** A growing buffer of one page's COPY data. */
class CopyBuffer {
  buf = Buffer.allocUnsafe(256 * 1024)
  at = 0

  room(bytes: number): void {
    if (this.at + bytes <= this.buf.length) return
    const bigger = Buffer.allocUnsafe(Math.max(this.buf.length * 2, this.at + bytes))
    this.buf.copy(bigger, 0, 0, this.at)
    this.buf = bigger
  }
  int16(v: number): void {
    this.room(2)
    this.at = this.buf.writeInt16BE(v, this.at)
  }
  int32(v: number): void {
    this.room(4)
    this.at = this.buf.writeInt32BE(v, this.at)
  }
  text(s: string): void {
    // A UTF-8 byte is at most 3 per UTF-16 unit; the length goes in front once known.
    this.room(4 + s.length * 3)
    const n = this.buf.write(s, this.at + 4, 'utf8')
    this.buf.writeInt32BE(n, this.at)
    this.at += 4 + n
  }
  float8(v: number): void {
    this.room(12)
    this.buf.writeInt32BE(8, this.at)
    this.at = this.buf.writeDoubleBE(v, this.at + 4)
  }
  timestamptz(iso: string): void {
    const us = (Date.parse(iso) - PG_EPOCH_MS) * 1000
    const high = Math.floor(us / TWO_32)
    this.room(12)
    this.buf.writeInt32BE(8, this.at)
    this.buf.writeInt32BE(high, this.at + 4)
    this.at = this.buf.writeUInt32BE(us - high * TWO_32, this.at + 8)
  }
  textOrNull(s: string | null): void {
    if (s == null) this.int32(-1)
    else this.text(s)
  }
  textArray(values: readonly string[]): void {
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
    this.buf.writeInt32BE(this.at - start - 4, start)
  }
}

/**
 * One page as COPY binary data, columns in EXCHANGE_COLUMNS / AGGREGATED_COLUMNS order, for tables of
 * exactly the types ensureTable checks (text, timestamptz, double precision, text[]). Doubles go as
 * their 8 bytes and close_ts as microseconds: no number is turned into text on this side and parsed
 * back on the server's (the text format's row builder was the export thread's largest item after
 * the garbage collector, 7 % of its time, in a profile).
 */
export function copyBinary(kind: Kind, candles: readonly AnyCandle[]): Buffer {
  const b = new CopyBuffer()
  b.room(SIGNATURE.length + 8)
  b.at += SIGNATURE.copy(b.buf, 0)
  b.int32(0) // flags
  b.int32(0) // header extension length
  if (kind === 'exchange') {
    for (const c of candles as ReadonlyArray<Extract<AnyCandle, { exchange: string }>>) {
      b.int16(14)
      b.text(c.exchange)
      b.text(c.interval)
      b.text(c.base)
      b.text(c.quote)
      b.timestamptz(c.close_ts)
      b.float8(c.open)
      b.float8(c.high)
      b.float8(c.low)
      b.float8(c.close)
      b.float8(c.base_volume)
      b.float8(c.quote_volume)
      b.text(c.source_provider)
      b.text(c.source_channel)
      b.textOrNull(c.flag)
    }
  } else {
    for (const c of candles as ReadonlyArray<Extract<AnyCandle, { method: string }>>) {
      b.int16(13)
      b.text(c.method)
      b.text(c.interval)
      b.text(c.base)
      b.text(c.quote)
      b.timestamptz(c.close_ts)
      b.float8(c.open)
      b.float8(c.high)
      b.float8(c.low)
      b.float8(c.close)
      b.float8(c.base_volume)
      b.float8(c.quote_volume)
      b.textArray(c.exchanges)
      b.textOrNull(c.flag)
    }
  }
  b.int16(-1)
  return b.buf.subarray(0, b.at)
}
