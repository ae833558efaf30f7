import { ExchangeColumns, type CandleSource } from '../data/exchange-columns.js'
import { daysFromCivil } from './fast-candle.js'

/*
 * The body of `POST /_mock/data/candles` read straight from its bytes into columns, as they arrive:
 * no string of the body, no JSON.parse, no object per candle. It reads only the plain case, a JSON
 * array of exchange candles with exactly the 14 fields (any order, any JSON whitespace), ASCII
 * strings without escapes, close_ts as `YYYY-MM-DDTHH:MM:SS[.000]Z`, flag null or a string. On
 * anything else it gives up (undefined), and the route parses the whole text as before, so every
 * answer but the plain case's (a 422 naming every bad row, a JSON error) is the one JSON.parse and
 * the object checks give. It judges no rule: the columns are checked (check-columns.ts) before
 * anything is stored.
 *
 * It reads each chunk where it lies, with no copy of the body: a row cut by a chunk's end is kept
 * (only its bytes) and read again from its start once the next chunk completes it, so the bytes may
 * arrive split anywhere. Nothing it keeps points into an earlier chunk: the string a field repeats
 * is compared with a copy of its bytes.
 */

const FIELDS = ['exchange', 'interval', 'base', 'quote', 'close_ts', 'open', 'high', 'low', 'close', 'base_volume', 'quote_volume', 'source_provider', 'source_channel', 'flag'] as const
// Their indices in FIELDS (and in a row's values).
const EXCHANGE = 0
const INTERVAL = 1
const BASE = 2
const QUOTE_ASSET = 3
const CLOSE_TS = 4
const OPEN = 5
const HIGH = 6
const LOW = 7
const CLOSE = 8
const BASE_VOLUME = 9
const QUOTE_VOLUME = 10
const PROVIDER = 11
const CHANNEL = 12
const FLAG = 13
const ALL_FIELDS = (1 << FIELDS.length) - 1
const KEYS = FIELDS.map((name) => Uint8Array.from(name, (c) => c.charCodeAt(0)))
/** A run of bytes to compare a word at a time: little-endian 32-bit words at 0, 4, ... and the last at length - 4 (overlapping). */
interface Token {
  length: number
  offsets: Uint32Array
  words: Uint32Array
}

function tokenOf(text: string): Token {
  const bytes = Uint8Array.from(text, (c) => c.charCodeAt(0))
  const view = new DataView(bytes.buffer)
  const offsets = Uint32Array.from(wordOffsets(bytes.length))
  return { length: bytes.length, offsets, words: offsets.map((o) => view.getUint32(o, true)) }
}

/** Each field's key as JSON.stringify writes it, `"name":`. */
const KEY_TOKENS = FIELDS.map((name) => tokenOf(`"${name}":`))
/** The keys of a row as JSON.stringify writes it, each with what comes before it: `{"exchange":`, `,"interval":`, ... */
const STRINGIFY_TOKENS = FIELDS.map((name, i) => tokenOf(`${i === 0 ? '{' : ','}"${name}":`))

/** Where the words of a run of `length` (>= 4) bytes start: every 4 bytes, the last overlapping to end at `length`. */
function wordOffsets(length: number): number[] {
  const offsets: number[] = []
  for (let o = 0; o + 4 < length; o += 4) offsets.push(o)
  offsets.push(length - 4)
  return offsets
}

const QUOTE = 34
const BACKSLASH = 92
const COMMA = 44
const COLON = 58
const OPEN_BRACE = 123
const CLOSE_BRACE = 125
const OPEN_BRACKET = 91
const CLOSE_BRACKET = 93
const MINUS = 45
const DOT = 46

/** The most series a batch read as columns may hold (more: the text path). */
const MAX_SERIES = 1000

/** Returned by a read: the bytes so far end inside it (read it again once more arrived). */
const MORE = -1
/** Returned by a read: not the plain case. */
const GIVE_UP = -2
/** Returned by #readStringifiedRow: not written as JSON.stringify writes a candle (#readRow then reads it). */
const NOT_STRINGIFIED = -3

const isSpace = (b: number) => b === 32 || b === 10 || b === 13 || b === 9

/** Exact powers of ten: a decimal of at most 15 digits divided by one is the correctly rounded double JSON.parse gives. */
const POW10 = Array.from({ length: 16 }, (_, i) => 10 ** i)
const DAYS = [31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31]

/** Where the array is: before `[`, after `[`, after a row, after a `,`, after `]`. */
const At = { Start: 0, Open: 1, Row: 2, Comma: 3, End: 4 } as const

/** The last string read for one field: the next row usually repeats it, found by comparing its bytes (and closing `"`) with a copy, a word at a time. */
interface Interned {
  /** Its length, -1 before the first. */
  length: number
  /** Its bytes and the closing `"`, as words at `offsets` (when 4 bytes or more), and as bytes. */
  offsets: Uint32Array
  words: Uint32Array
  bytes: Uint8Array
  value: string
}

const NO_STRING: Interned = { length: -1, offsets: new Uint32Array(0), words: new Uint32Array(0), bytes: new Uint8Array(0), value: '' }

/**
 * What one row read, before it is committed. Numbers live in typed arrays only: an object field that
 * goes from a small integer to a double gives its object a new hidden class each request, which the
 * next full GC drops with the optimized code that embedded it (DEVELOPERS.md).
 */
class RowValues {
  strings: string[] = FIELDS.map(() => '')
  /** By field; close_ts's slot holds its epoch ms. */
  numbers = new Float64Array(FIELDS.length)
  flag: string | null = null
}

/** Reads a candle batch's JSON bytes into columns as they arrive; see the file's comment. */
export class CandleBatchScanner {
  #at: number = At.Start
  #failed = false
  /** The start of a row the last chunk cut, with what came after it so far: `#carry[0, #carried)`. */
  #carry = new Uint8Array(0)
  #carried = 0
  #n = 0
  #initialCapacity: number
  #capacity = 0
  #ts = new Float64Array(0)
  #numbers = Array.from({ length: 6 }, () => new Float64Array(0))
  #source = new Uint32Array(0)
  #series = new Uint32Array(0)
  #interned: Interned[] = FIELDS.map(() => NO_STRING)
  #row = new RowValues()
  /** The last close_ts day read: its 10 bytes as three words, and its epoch ms (-1: none yet, no bytes read are). */
  #day = Float64Array.of(-1, -1, -1, 0)
  #view: DataView | undefined
  // Series and sources by key, the previous row's kept to skip the lookup.
  #seriesKeys = new Map<string, number>()
  #seriesNames: { exchange: string; interval: string; base: string; quote: string }[] = []
  #lastSeries = -1
  #sourceKeys = new Map<string, number>()
  #sources: CandleSource[] = []
  #lastSource = -1

  /** `expectedBytes`: the body's declared length, to size the columns once, at the first row (a row of the 14 fields takes at least 206 bytes). */
  constructor(expectedBytes = 0) {
    this.#initialCapacity = Math.max(16, Math.ceil(expectedBytes / 200) + 1)
  }

  /** Reads the next bytes of the body (a chunk is read where it lies, and may be reused once this returns). */
  push(chunk: Uint8Array): void {
    if (this.#failed) return
    let from = 0
    if (this.#carried > 0) {
      from = this.#complete(chunk)
      if (from < 0) return
    }
    const stop = this.#scan(chunk, from, chunk.length)
    if (stop >= 0 && stop < chunk.length) this.#keep(chunk, stop, chunk.length)
  }

  /**
   * Completes the carried row with the chunk's first bytes (more of them each time it is still cut):
   * where the chunk's bytes go on after it, or -1 when the whole chunk went into the carry (or the
   * body is not the plain case).
   */
  #complete(chunk: Uint8Array): number {
    const carried = this.#carried
    let taken = 0
    for (;;) {
      const more = Math.min(chunk.length - taken, Math.max(4096, this.#carried))
      this.#keep(chunk, taken, taken + more)
      taken += more
      const stop = this.#scan(this.#carry, 0, this.#carried)
      if (stop < 0) return -1
      // Past the carried row: the chunk goes on from there (any row begun in the bytes taken is read again in place).
      if (stop >= carried) {
        this.#carried = 0
        return stop - carried
      }
      if (taken === chunk.length) {
        // Still cut: keep it from its start.
        this.#carry.copyWithin(0, stop, this.#carried)
        this.#carried -= stop
        return -1
      }
    }
  }

  /** Appends `bytes[from, to)` to the carry (grown by doubling). */
  #keep(bytes: Uint8Array, from: number, to: number): void {
    const need = this.#carried + to - from
    if (need > this.#carry.length) {
      const grown = new Uint8Array(Math.max(need, 2 * this.#carry.length, 1024))
      grown.set(this.#carry.subarray(0, this.#carried))
      this.#carry = grown
    }
    this.#carry.set(bytes.subarray(from, to), this.#carried)
    this.#carried = need
  }

  /** Reads the rows complete in `bytes[from, end)`: where it stopped (the start of a row cut at `end`, or `end`), or -1 when the body is not the plain case. */
  #scan(bytes: Uint8Array, from: number, end: number): number {
    this.#view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength)
    let p = from
    for (;;) {
      while (p < end && isSpace(bytes[p]!)) p++
      if (p >= end) return p
      const b = bytes[p]!
      if (this.#at === At.Start) {
        if (b !== OPEN_BRACKET) return this.#fail()
        this.#at = At.Open
        p++
      } else if (this.#at === At.Row) {
        if (b === COMMA) this.#at = At.Comma
        else if (b === CLOSE_BRACKET) this.#at = At.End
        else return this.#fail()
        p++
      } else if (this.#at === At.End) {
        return this.#fail()
      } else {
        // After `[` or `,`: a row (or, right after `[`, the end of an empty array: not the plain case).
        if (b !== OPEN_BRACE) return this.#fail()
        // As JSON.stringify writes it first (no dispatch on the key), then any way JSON allows.
        let next = this.#readStringifiedRow(bytes, p, end)
        if (next === NOT_STRINGIFIED) next = this.#readRow(bytes, p, end)
        if (next === GIVE_UP) return this.#fail()
        if (next === MORE) return p
        if (!this.#commit()) return this.#fail()
        this.#at = At.Row
        p = next
      }
    }
  }

  /** The batch as runs of one series each (ascending or not: the columns' check judges), or undefined when it is not the plain case. Call once every byte was pushed. */
  finish(): ExchangeColumns[] | undefined {
    if (this.#failed || this.#at !== At.End || this.#n === 0 || this.#carried > 0) return undefined
    const n = this.#n
    const series = this.#seriesNames
    const [open, high, low, close, baseVolume, quoteVolume] = this.#numbers as [Float64Array, Float64Array, Float64Array, Float64Array, Float64Array, Float64Array]
    if (series.length === 1) {
      const s = series[0]!
      // The columns were sized for the most rows the body could hold: cut to their length, copied
      // when that leaves much unused.
      const cut = <A extends Float64Array | Uint32Array>(a: A) => (n >= a.length * 0.75 ? a.subarray(0, n) : a.slice(0, n)) as A
      return [new ExchangeColumns(s.exchange, s.interval, s.base, s.quote, n, cut(this.#ts), cut(open), cut(high), cut(low), cut(close), cut(baseVolume), cut(quoteVolume), cut(this.#source), this.#sources)]
    }
    // Several series: each row to its series' run, in the batch's order.
    const counts = new Uint32Array(series.length)
    for (let i = 0; i < n; i++) counts[this.#series[i]!]!++
    const runs = series.map((s, k) => {
      const m = counts[k]!
      const f = () => new Float64Array(m)
      return new ExchangeColumns(s.exchange, s.interval, s.base, s.quote, m, f(), f(), f(), f(), f(), f(), f(), new Uint32Array(m), this.#sources)
    })
    const filled = new Uint32Array(series.length)
    for (let i = 0; i < n; i++) {
      const k = this.#series[i]!
      const run = runs[k]!
      const j = filled[k]!++
      run.ts[j] = this.#ts[i]!
      run.open[j] = open[i]!
      run.high[j] = high[i]!
      run.low[j] = low[i]!
      run.close[j] = close[i]!
      run.baseVolume[j] = baseVolume[i]!
      run.quoteVolume[j] = quoteVolume[i]!
      run.source[j] = this.#source[i]!
    }
    return runs
  }

  #fail(): -1 {
    this.#failed = true
    return -1
  }

  /**
   * Reads the object at `p` (a `{`) into #row when it is written as JSON.stringify writes a candle:
   * the 14 keys in FIELDS' order, no whitespace. The position after its `}`, MORE or NOT_STRINGIFIED.
   */
  #readStringifiedRow(bytes: Uint8Array, p: number, end: number): number {
    const view = this.#view!
    for (let field = 0; field < FIELDS.length; field++) {
      const token = STRINGIFY_TOKENS[field]!
      if (!(p + token.length <= end && sameWords(view, p, token.offsets, token.words))) return NOT_STRINGIFIED
      p += token.length
      if (p >= end) return MORE
      p = this.#readValue(bytes, view, p, end, field)
      // (Whitespace before a value, say: #readRow judges.)
      if (p < 0) return p === MORE ? MORE : NOT_STRINGIFIED
    }
    if (p >= end) return MORE
    return bytes[p] === CLOSE_BRACE ? p + 1 : NOT_STRINGIFIED
  }

  /** Reads the object at `p` (a `{`) into #row: the position after its `}`, MORE or GIVE_UP. */
  #readRow(bytes: Uint8Array, p: number, end: number): number {
    const view = this.#view!
    let seen = 0
    let expected = 0
    p++
    for (;;) {
      let field: number
      // The key: most often the one after the previous key, as JSON.stringify writes them: `"name":`,
      // compared a word at a time.
      const token = KEY_TOKENS[expected]!
      if (p + token.length <= end && sameWords(view, p, token.offsets, token.words)) {
        field = expected
        p += token.length
      } else {
        while (p < end && isSpace(bytes[p]!)) p++
        if (p >= end) return MORE
        if (bytes[p] !== QUOTE) return GIVE_UP
        p++
        // (MORE there: the bytes so far are a prefix of that key, so no other key can match yet.)
        field = matchKey(bytes, p, end, expected)
        if (field === MORE) return MORE
        if (field === GIVE_UP) {
          let more = false
          for (let f = 0; f < FIELDS.length && field < 0; f++) {
            if (f === expected) continue
            const r = matchKey(bytes, p, end, f)
            if (r >= 0) field = r
            else if (r === MORE) more = true
          }
          if (field < 0) return more ? MORE : GIVE_UP
        }
        p += KEYS[field]!.length + 1
        while (p < end && isSpace(bytes[p]!)) p++
        if (p >= end) return MORE
        if (bytes[p] !== COLON) return GIVE_UP
        p++
      }
      if (seen & (1 << field)) return GIVE_UP
      seen |= 1 << field
      expected = field + 1 === FIELDS.length ? 0 : field + 1
      while (p < end && isSpace(bytes[p]!)) p++
      if (p >= end) return MORE
      p = this.#readValue(bytes, view, p, end, field)
      if (p < 0) return p
      while (p < end && isSpace(bytes[p]!)) p++
      if (p >= end) return MORE
      const b = bytes[p++]
      if (b === CLOSE_BRACE) return seen === ALL_FIELDS ? p : GIVE_UP
      if (b !== COMMA) return GIVE_UP
    }
  }

  /** The value of `field` at `p` (no whitespace before it) into #row: the position after it, MORE or GIVE_UP. */
  #readValue(bytes: Uint8Array, view: DataView, p: number, end: number, field: number): number {
    if (field === CLOSE_TS) return this.#readCloseTs(bytes, view, p, end)
    if (field >= OPEN && field <= QUOTE_VOLUME) return this.#readNumber(bytes, p, end, field)
    if (field === FLAG && bytes[p] === 110 /* n */) {
      if (p + 4 > end) return MORE
      if (bytes[p + 1] !== 117 || bytes[p + 2] !== 108 || bytes[p + 3] !== 108) return GIVE_UP
      this.#row.flag = null
      return p + 4
    }
    return this.#readString(bytes, view, p, end, field)
  }

  /** A string value at `p` (its `"`): ASCII, no escapes; the field's previous value when the bytes repeat it (with its closing `"`). */
  #readString(bytes: Uint8Array, view: DataView, p: number, end: number, field: number): number {
    if (bytes[p] !== QUOTE) return GIVE_UP
    p++
    const last = this.#interned[field]!
    const n = last.length + 1
    let value: string
    if (n > 0 && p + n <= end && (n >= 4 ? sameWords(view, p, last.offsets, last.words) : sameBytes(bytes, p, last.bytes))) {
      value = last.value
      p += n
    } else {
      const from = p
      for (;;) {
        if (p >= end) return MORE
        const b = bytes[p]!
        if (b === QUOTE) break
        if (b < 0x20 || b > 0x7e || b === BACKSLASH) return GIVE_UP
        p++
      }
      value = ascii(bytes, from, p)
      // A copy (Uint8Array.from: a Buffer's slice() is a view into the chunk).
      this.#interned[field] = internedOf(Uint8Array.from(bytes.subarray(from, p + 1)), value)
      p++
    }
    if (field === FLAG) this.#row.flag = value
    else this.#row.strings[field] = value
    return p
  }

  /** close_ts at `p` (its `"`): `YYYY-MM-DDTHH:MM:SS` then `Z` or a fraction of zeros and `Z` (what fast-candle.ts reads), as epoch ms. */
  #readCloseTs(bytes: Uint8Array, view: DataView, p: number, end: number): number {
    if (bytes[p] !== QUOTE) return GIVE_UP
    const from = p + 1
    let q = from + 20
    // The canonical form first: its closing `"` 20 bytes on.
    if (!(q < end && bytes[q] === QUOTE)) {
      for (q = from; ; q++) {
        if (q >= end) return MORE
        if (bytes[q] === QUOTE) break
        if (q - from > 30) return GIVE_UP
      }
    }
    const n = q - from
    if (n < 20 || n > 30 || n === 21 || bytes[q - 1] !== 90 /* Z */) return GIVE_UP
    if (bytes[from + 10] !== 84 /* T */ || bytes[from + 13] !== COLON || bytes[from + 16] !== COLON) return GIVE_UP
    if (n > 20) {
      if (bytes[from + 19] !== DOT) return GIVE_UP
      for (let i = from + 20; i < q - 1; i++) if (bytes[i] !== 48) return GIVE_UP
    }
    // The day: most rows repeat the previous row's `YYYY-MM-DD` (compared as words: 1,440 1m candles a day).
    const day = this.#day
    const w0 = view.getUint32(from, true)
    const w1 = view.getUint32(from + 4, true)
    const w2 = view.getUint16(from + 8, true)
    if (w0 !== day[0] || w1 !== day[1] || w2 !== day[2]) {
      if (bytes[from + 4] !== MINUS || bytes[from + 7] !== MINUS) return GIVE_UP
      const y = digitsAt(bytes, from, 4)
      const mo = digitsAt(bytes, from + 5, 2)
      const d = digitsAt(bytes, from + 8, 2)
      if (y < 0 || mo < 1 || mo > 12 || d < 1) return GIVE_UP
      const leap = (y % 4 === 0 && y % 100 !== 0) || y % 400 === 0
      if (d > (mo === 2 && leap ? 29 : DAYS[mo - 1]!)) return GIVE_UP
      day[0] = w0
      day[1] = w1
      day[2] = w2
      day[3] = daysFromCivil(y, mo, d) * 86_400_000
    }
    const h = digitsAt(bytes, from + 11, 2)
    const mi = digitsAt(bytes, from + 14, 2)
    const s = digitsAt(bytes, from + 17, 2)
    if (h < 0 || h > 23 || mi < 0 || mi > 59 || s < 0 || s > 59) return GIVE_UP
    this.#row.numbers[CLOSE_TS] = day[3]! + h * 3_600_000 + mi * 60_000 + s * 1000
    return q + 1
  }

  /** A JSON number at `p`, exactly as JSON.parse reads it (a short decimal by one division, anything longer by Number). */
  #readNumber(bytes: Uint8Array, p: number, end: number, field: number): number {
    const from = p
    let negative = false
    if (bytes[p] === MINUS) {
      negative = true
      if (++p >= end) return MORE
    }
    let m = 0
    let digits = 0
    let b = bytes[p]! - 48
    if (b === 0) {
      p++
      digits = 1
    } else if (b > 0 && b <= 9) {
      while (p < end && (b = bytes[p]! - 48) >= 0 && b <= 9) (m = m * 10 + b), digits++, p++
    } else return GIVE_UP
    let scale = 0
    if (p < end && bytes[p] === DOT) {
      p++
      const first = p
      while (p < end && (b = bytes[p]! - 48) >= 0 && b <= 9) (m = m * 10 + b), digits++, p++
      scale = p - first
      if (scale === 0 && p < end) return GIVE_UP
    }
    let exponent = false
    if (p < end && (bytes[p] === 101 || bytes[p] === 69) /* e E */) {
      exponent = true
      p++
      if (p < end && (bytes[p] === 43 || bytes[p] === MINUS)) p++
      const first = p
      while (p < end && (b = bytes[p]! - 48) >= 0 && b <= 9) p++
      if (p === first && p < end) return GIVE_UP
    }
    // The number may go on in bytes not yet here.
    if (p >= end) return MORE
    let value: number
    if (exponent || digits > 15) value = Number(ascii(bytes, from, p))
    else {
      value = scale === 0 ? m : m / POW10[scale]!
      if (negative) value = -value
    }
    this.#row.numbers[field]! = value
    return p
  }

  /** Stores #row as row n: its numbers, its series and source (the previous row's when the same strings). False past MAX_SERIES series. */
  #commit(): boolean {
    if (this.#n === this.#capacity) this.#grow()
    const i = this.#n++
    const row = this.#row
    const { strings, numbers } = row
    this.#ts[i] = numbers[CLOSE_TS]!
    const cols = this.#numbers
    cols[0]![i] = numbers[OPEN]!
    cols[1]![i] = numbers[HIGH]!
    cols[2]![i] = numbers[LOW]!
    cols[3]![i] = numbers[CLOSE]!
    cols[4]![i] = numbers[BASE_VOLUME]!
    cols[5]![i] = numbers[QUOTE_VOLUME]!
    const exchange = strings[EXCHANGE]!
    const interval = strings[INTERVAL]!
    const base = strings[BASE]!
    const quote = strings[QUOTE_ASSET]!
    let s = this.#lastSeries
    const named = s >= 0 ? this.#seriesNames[s]! : undefined
    if (!named || named.exchange !== exchange || named.interval !== interval || named.base !== base || named.quote !== quote) {
      const key = JSON.stringify([exchange, interval, base, quote])
      s = this.#seriesKeys.get(key) ?? -1
      if (s < 0) {
        // Columns per series pay for few series of many rows; a batch of many short series is objects' work.
        if (this.#seriesNames.length === MAX_SERIES) return false
        s = this.#seriesNames.length
        this.#seriesNames.push({ exchange, interval, base, quote })
        this.#seriesKeys.set(key, s)
      }
      this.#lastSeries = s
    }
    this.#series[i] = s
    const provider = strings[PROVIDER]!
    const channel = strings[CHANNEL]!
    const flag = row.flag
    let k = this.#lastSource
    const source = k >= 0 ? this.#sources[k]! : undefined
    if (!source || source.provider !== provider || source.channel !== channel || source.flag !== flag) {
      const key = JSON.stringify([provider, channel, flag])
      k = this.#sourceKeys.get(key) ?? -1
      if (k < 0) {
        k = this.#sources.length
        this.#sources.push({ provider, channel, flag })
        this.#sourceKeys.set(key, k)
      }
      this.#lastSource = k
    }
    this.#source[i] = k
    return true
  }

  #grow(): void {
    const capacity = this.#capacity === 0 ? this.#initialCapacity : this.#capacity * 2
    const more = <A extends Float64Array | Uint32Array>(a: A): A => {
      const b = new (a.constructor as new (n: number) => A)(capacity)
      b.set(a)
      return b
    }
    this.#ts = more(this.#ts)
    this.#numbers = this.#numbers.map(more)
    this.#source = more(this.#source)
    this.#series = more(this.#series)
    this.#capacity = capacity
  }
}

/** Field `field`'s key at `p` (after its `"`), with its closing `"`: `field`, MORE when the bytes end first, or GIVE_UP. */
function matchKey(bytes: Uint8Array, p: number, end: number, field: number): number {
  const key = KEYS[field]!
  const n = key.length
  for (let i = 0; i <= n; i++) {
    if (p + i >= end) return MORE
    if (bytes[p + i] !== (i === n ? QUOTE : key[i])) return GIVE_UP
  }
  return field
}

/** Whether the words of `view` at `p` + each offset are `words` (always Uint32Arrays: one kind of array keeps this call inlined). */
function sameWords(view: DataView, p: number, offsets: Uint32Array, words: Uint32Array): boolean {
  for (let i = 0; i < offsets.length; i++) if (view.getUint32(p + offsets[i]!, true) !== words[i]) return false
  return true
}

/** Whether `bytes` at `p` starts with `expected`. */
function sameBytes(bytes: Uint8Array, p: number, expected: Uint8Array): boolean {
  for (let i = 0; i < expected.length; i++) if (bytes[p + i] !== expected[i]) return false
  return true
}

/** A string value to compare the next rows' with: `bytes` its bytes and closing `"` (a copy). */
function internedOf(bytes: Uint8Array, value: string): Interned {
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength)
  const offsets = Uint32Array.from(bytes.length >= 4 ? wordOffsets(bytes.length) : [])
  return { length: bytes.length - 1, offsets, words: offsets.map((o) => view.getUint32(o, true)), bytes, value }
}

/** The number written by `n` digits at `p`, or -1 when one is not a digit. */
function digitsAt(bytes: Uint8Array, p: number, n: number): number {
  let v = 0
  for (let i = 0; i < n; i++) {
    const d = bytes[p + i]! - 48
    if (d < 0 || d > 9) return -1
    v = v * 10 + d
  }
  return v
}

const DECODER = new TextDecoder()

/** ASCII bytes as a string (a flat one, whatever its length). */
const ascii = (bytes: Uint8Array, from: number, to: number): string => DECODER.decode(bytes.subarray(from, to))
