/** Formats epoch milliseconds as `YYYY-MM-DDTHH:MM:SSZ`, the service's only output format (D5). */
export function formatTimestamp(ms: number): string {
  const iso = new Date(ms).toISOString()
  // toISOString always has milliseconds; close_ts never does.
  return `${iso.slice(0, 19)}Z`
}

/** Formats epoch milliseconds as ISO 8601 with milliseconds, for cursor values like `close_ts + 1 ms` (D11). */
export function formatInstant(ms: number): string {
  return new Date(ms).toISOString()
}
