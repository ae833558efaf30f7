export { ENDPOINTS, API_KEY_HEADER, DEFAULT_BASE_URL, type EndpointName, type CandleEndpointName } from './endpoints.js'
export {
  exchangesQuerySchema,
  assetsQuerySchema,
  exchangePairsQuerySchema,
  aggregatedPairsQuerySchema,
  exchangeOhlcvQuerySchema,
  aggregatedOhlcvQuerySchema,
  querySchemas,
  type ExchangePairsQuery,
  type AggregatedPairsQuery,
  type ExchangeOhlcvQuery,
  type AggregatedOhlcvQuery,
} from './queries.js'
export { LIMIT } from './query-values.js'
export { toValidationIssues, rawQueryOf, type RawQuery } from './validation-issues.js'
export { describeIssue } from './describe-issue.js'
export { responseSchemas, type ResponseOf } from './responses.js'
export type { DateInput } from './date-input.js'
export { parseDateTime, dateTimeMs } from './parse-datetime.js'
export { parseTimestamp, formatTimestamp, canonicalTimestamp, isCanonicalTimestamp, CANONICAL_TIMESTAMP } from './close-time.js'
export { parseDuration, describeDuration } from './duration.js'
