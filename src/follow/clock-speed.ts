/**
 * The speed to assume for a clock whose `Date` headers allow any speed in `[low, high]` (service ms
 * per local ms). Clocks run at round speeds (1 in production; 60, 120, 600 for a test service's
 * clock), and a round speed that is right stays right for as long as the follow runs, where the
 * middle of the range would drift: 1 when the range holds it, else the roundest number it holds
 * (every speed in it is one the answers allow, so the roundest is as safe as the middle), else its middle. 0 (a stopped clock) once the range is under half of wall speed and reaches 0.
 */
export function roundSpeed(low: number, high: number): number {
  if (low <= 0 && high < 0.5) return 0
  const middle = (low + high) / 2
  if (!(middle > 0)) return Math.max(0, middle)
  // Wall speed whenever the answers allow it: every deployment runs at it.
  if (1 >= low && 1 <= high) return 1
  // The number of significant digits grows until a rounding of the middle falls in the range. Not
  // only its middle half: a range of [1.99, 2.05] holds 2, which the middle half would pass over for 2.02.
  for (let digits = 1; digits <= 6; digits++) {
    const step = 10 ** (Math.floor(Math.log10(middle)) + 1 - digits)
    for (const candidate of [Math.round(middle / step) * step, Math.round(middle / (step / 2)) * (step / 2)]) {
      if (candidate >= low && candidate <= high) return candidate
    }
  }
  return middle
}
