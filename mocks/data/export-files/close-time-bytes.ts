import { daysFromCivil } from '../../core/fast-candle.js'

const DAYS = [31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31]

/** The number the two ASCII digits at `i` write, or -1 when either byte is not a digit. */
function twoDigits(b: Uint8Array, i: number): number {
  const x = b[i]! - 48
  const y = b[i + 1]! - 48
  return x >= 0 && x <= 9 && y >= 0 && y <= 9 ? x * 10 + y : -1
}

/**
 * {@link CloseTimeReader} on the bytes of a 20-byte UTF-8 text, no string made: the same texts
 * (`YYYY-MM-DDTHH:MM:SSZ`, wholeSecondMs' ranges) give the same epoch ms, anything else NaN.
 * A text of 20 bytes with a byte past ASCII is never that form, nor is a text of another length,
 * which the caller refuses before. The date is worked out once per day.
 */
export class CloseTimeBytes {
  private day = -1
  private dayMs = 0

  of(b: Uint8Array, o: number): number {
    if (b[o + 4] !== 45 || b[o + 7] !== 45 || b[o + 10] !== 84 || b[o + 13] !== 58 || b[o + 16] !== 58 || b[o + 19] !== 90) return NaN
    const yh = twoDigits(b, o)
    const yl = twoDigits(b, o + 2)
    const mo = twoDigits(b, o + 5)
    const d = twoDigits(b, o + 8)
    const h = twoDigits(b, o + 11)
    const mi = twoDigits(b, o + 14)
    const s = twoDigits(b, o + 17)
    if (yh < 0 || yl < 0 || mo < 1 || mo > 12 || d < 1 || h < 0 || h > 23 || mi < 0 || mi > 59 || s < 0 || s > 59) return NaN
    const day = ((yh * 100 + yl) * 100 + mo) * 100 + d
    if (day !== this.day) {
      const y = yh * 100 + yl
      const leap = (y % 4 === 0 && y % 100 !== 0) || y % 400 === 0
      if (d > (mo === 2 && leap ? 29 : DAYS[mo - 1]!)) return NaN
      this.day = day
      this.dayMs = daysFromCivil(y, mo, d) * 86_400_000
    }
    return this.dayMs + h * 3_600_000 + mi * 60_000 + s * 1000
  }
}
