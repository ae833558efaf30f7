/**
 * A count and its noun, the noun singular for exactly one: `1 request`, `2 requests`, `0 requests`.
 * `shown` is the count as printed (grouped digits: `8,761`), `many` an irregular plural.
 *
 * @example
 * plural(1, 'candle') // '1 candle'
 * plural(8761, 'candle', '8,761') // '8,761 candles'
 */
export function plural(count: number, noun: string, shown: string = String(count), many = `${noun}s`): string {
  return `${shown} ${count === 1 ? noun : many}`
}
