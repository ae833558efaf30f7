import { wholeSecondMs } from '../../core/fast-candle.js'

const DAY_MS = 86_400_000

/** A two-digit field at `i`, or -1 when either character is not a digit. */
function twoDigits(text: string, i: number): number {
  const a = text.charCodeAt(i) - 48
  const b = text.charCodeAt(i + 1) - 48
  return a >= 0 && a <= 9 && b >= 0 && b <= 9 ? a * 10 + b : -1
}

/**
 * Close times in the service's form (`YYYY-MM-DDTHH:MM:SSZ`, 20 characters) as epoch ms, for the
 * rows of a series in order: the date is parsed once per day (wholeSecondMs), a row of the same
 * day costs its time of day only. Undefined for any other text.
 */
export class CloseTimeReader {
  private day = ''
  private dayMs = 0

  of(text: string): number | undefined {
    if (text.length !== 20) return undefined
    if (this.day !== '' && text.startsWith(this.day)) {
      const h = twoDigits(text, 11)
      const m = twoDigits(text, 14)
      const s = twoDigits(text, 17)
      if (text.charCodeAt(13) !== 58 || text.charCodeAt(16) !== 58 || text.charCodeAt(19) !== 90 || h < 0 || h > 23 || m < 0 || m > 59 || s < 0 || s > 59) return undefined
      return this.dayMs + ((h * 60 + m) * 60 + s) * 1000
    }
    const t = wholeSecondMs(text)
    if (t !== undefined) {
      // `YYYY-MM-DDT`: 11 characters, a copy of its own (V8 slices only from 13).
      this.day = text.slice(0, 11)
      this.dayMs = t - (((t % DAY_MS) + DAY_MS) % DAY_MS)
    }
    return t
  }
}
