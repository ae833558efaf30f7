import { LIMIT, type EndpointName } from '../contract/index.js'

/*
 * The words of the OpenAPI document: the rules of the contract (docs/contract.md), said where a
 * reader of the document meets them.
 */

export const INFO = `Historical and recent OHLCV candles (open, high, low, close, base volume, quote volume) for trading pairs, read-only.

Four public catalog endpoints list the exchanges, assets and pairs for which data exists; two candle endpoints, which need an API key, serve raw candles of one exchange and a cross-exchange aggregated series.

Rules that hold everywhere:
- Every response is JSON. A 200 is a bare array (no wrapper, no count); candle arrays are ascending by \`close_ts\`.
- A 422 body is \`{"detail": [issues]}\`; every other error body is \`{"detail": "..."}\`, a string naming the offending value.
- Values of \`exchange\`, \`interval\` and \`method\` are matched exactly (case-sensitive); unknown query parameters are ignored.
- Another method on a known path is a 405 with \`Allow: GET\` (described under \`x-other-methods\` of each path); an unknown path is a 404 \`{"detail": "Not Found"}\`.
- Only a 200 from a candle endpoint is counted in usage; catalog calls never are.

The full contract, with every rule where the interface itself is silent, is docs/contract.md of the market-candles package.`

export const TAG_CATALOG = 'Public: no key, no plan check, never counted in usage, not rate limited. The API-key header is ignored.'
export const TAG_CANDLES = 'Need an API key. Checked in this order: key (401), parameters (422), resolution (404), plan (403), rate limit (429); only the 200 is counted.'

export const SECURITY = 'An API key in the `X-API-Key` header. A key acts as its account: the usage and the rate limit of every key of one account add up.'

export const FLAG =
  '`null`: a normal candle. `"outlier"`: anomalous but kept in aggregation. `"outlier_excluded"`: anomalous and left out of aggregation. Newer values may appear.'

export const PAIR_COVERAGE =
  'A pair with at least one candle under the call\'s filters, and the first and last `close_ts` of its data up to now. The two timestamps describe coverage, not a schedule: the range may have gaps.'

export const EXCHANGE_CANDLE =
  'One raw candle of one exchange. `close_ts` is the end boundary of the candle\'s interval (the 1m candle of 09:00-09:01 closes at 09:01:00Z) and the ordering and paging key.'

export const AGGREGATED_CANDLE = `One candle of the combined series, by \`omm_vwap_v1\`: over the exchange candles of one pair, interval and \`close_ts\` that are not flagged \`outlier_excluded\`, the volumes are sums, \`close\` is sum(quote_volume) / sum(base_volume) (the plain mean of the closes when the base volume is 0), and \`open\`, \`high\`, \`low\` are base-volume-weighted means. \`exchanges\` lists the contributors, ascending. \`flag\` is \`outlier_excluded\` when a candidate was left out, else \`outlier\` when a contributor is flagged so, else null.`

export const VALIDATION_ISSUE = `One bad parameter, in the pydantic v2 convention. \`type\` is one of \`missing\` (also an empty value), \`int_parsing\`, \`greater_than_equal\`, \`less_than_equal\` (with \`ctx\` giving the bound), \`datetime_from_date_parsing\`, \`value_error\` (a rule between parameters such as \`start\` after \`end\`, \`loc\` naming the later one; or a parameter given twice). \`input\` is the raw value as received, null when missing.`

export const UNAUTHORIZED =
  'No key, an empty key or a key of only white space: `{"detail": "Not authenticated"}`. An unknown or revoked key: `{"detail": "Invalid API key"}`. Checked first, before any parameter; never counted.'
export const FORBIDDEN =
  'The plan of the key\'s account does not include this endpoint or this interval, or `start` is older than the plan\'s history depth for them (the detail names the depth). Never counted.'
export const NOT_FOUND =
  'An `exchange`, `interval` or `method` that does not resolve to a known one, or (candle endpoints) a pair with no series on that exchange, or in the aggregate, at that interval. Never counted.'
export const METHOD_NOT_ALLOWED = 'Any method but GET on a known path, including a lower-case `get`.'
export const VALIDATION_ERROR =
  `A required parameter missing or empty, \`limit\` not an integer from ${LIMIT.min} to ${LIMIT.max}, \`start\` or \`end\` not a datetime, \`start\` after \`end\`, or a parameter given twice. Every bad parameter is reported at once. Never counted.`
export const TOO_MANY_REQUESTS =
  'More than 10 counted requests in the last second for the account (a sliding window shared by all its keys). A 429 is not counted and does not use up the window.'

const PAGING = `Paging (no cursor, no offset): with \`start\`, the page is the first \`limit\` candles with \`start <= close_ts\` (and \`<= end\` if set); the next page repeats the request with \`start\` = the last \`close_ts\` plus one millisecond, even when \`end\` is set. Without \`start\`, the page is the latest \`limit\` candles up to \`end\` (or up to now), still ascending; the previous page sets \`end\` = the first \`close_ts\` minus one millisecond.`

const PLAN = `Plans: the key's plan lists the endpoints and intervals it may call and, per interval, a history depth. \`start\` older than now minus that depth is a 403; without \`start\`, pages stop at that horizon, so backward paging ends with an empty page instead of an error.`

const LATEST = '"Latest available" means the newest candle with `close_ts <= now`.'

export const SUMMARY: Record<EndpointName, string> = {
  exchanges: 'List the exchanges',
  assets: 'List the assets',
  exchange_pairs: 'List the pairs of one exchange at one interval',
  aggregated_pairs: 'List the pairs of the aggregated series at one interval',
  exchange_ohlcv: 'Raw candles of one exchange',
  aggregated_ohlcv: 'Cross-exchange aggregated candles',
}

export const DESCRIPTION: Record<EndpointName, string> = {
  exchanges: 'Every exchange, ordered by `name` ascending.',
  assets: 'Every asset, ordered by `ticker` ascending.',
  exchange_pairs:
    'Every (base, quote) pair with at least one candle of that exchange at that interval up to now, ordered by `base` then `quote`. An unknown exchange or interval is a 404, never an empty array.',
  aggregated_pairs:
    'Every (base, quote) pair with at least one aggregated candle at that interval up to now, ordered by `base` then `quote`; all methods unioned when `method` is omitted. No `exchange` parameter: aggregation combines every exchange.',
  exchange_ohlcv: `Raw candles of one exchange, ascending by \`close_ts\`. ${LATEST}\n\n${PAGING}\n\n${PLAN}`,
  aggregated_ohlcv: `The combined series over every exchange, ascending by \`close_ts\`; no \`exchange\` parameter. ${LATEST}\n\n${PAGING}\n\n${PLAN}`,
}

export const OK: Record<EndpointName, string> = {
  exchanges: 'The exchanges.',
  assets: 'The assets.',
  exchange_pairs: 'The pairs with their coverage.',
  aggregated_pairs: 'The pairs with their coverage.',
  exchange_ohlcv: 'One page of candles (possibly empty). Counted in usage; carries the rate-limit headers.',
  aggregated_ohlcv: 'One page of aggregated candles (possibly empty). Counted in usage; carries the rate-limit headers.',
}
