/** A time as a `Date`, epoch milliseconds, or an ISO 8601 string (contract: time). */
export type DateInput = Date | number | string
