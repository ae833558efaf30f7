/**
 * A time: a `Date`, epoch milliseconds, or an ISO 8601 string such as `2024-05-01T09:00:00Z` or
 * `2024-05-01` (see docs/contract.md#time for the grammar).
 */
export type DateInput = Date | number | string
