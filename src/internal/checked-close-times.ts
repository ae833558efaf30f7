// Candle arrays the client validated as a 200 body: every `close_ts` in them matched the datetime
// pattern, so a text of the service's length is `YYYY-MM-DDTHH:MM:SSZ` with real digits, and text
// order is time order. The gap tracker reads such a page from its two ends when it has no gap
// (gap-tracker.ts). Weak: a page forgotten by the walk is not kept.
const checked = new WeakSet<readonly unknown[]>()

/** Records that every `close_ts` of `candles` passed the response's datetime check. */
export function markCloseTimesChecked(candles: readonly unknown[]): void {
  checked.add(candles)
}

/** True when `candles` is an array the transport validated (see markCloseTimesChecked). */
export function closeTimesChecked(candles: readonly unknown[]): boolean {
  return checked.has(candles)
}
