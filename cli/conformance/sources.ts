/**
 * Where each check of a rule comes from. A statement of interface.md is the contract every
 * deployment keeps: breaking it is a failure. A decision of decisions.md (D1-D12, and D13's list of
 * the reference's own forms) is how the reference fills a gap: another deployment may fill it
 * otherwise, so a check of it that does not hold is a difference from the reference, a failure only
 * with `--reference`. docs/conformance.md maps every statement to the rules that check it.
 */

/** One source: a sentence of interface.md or a decision of decisions.md. */
export interface Source {
  /** `interface` (a broken check fails) or `decision` (a broken check is a difference from the reference). */
  readonly kind: 'interface' | 'decision'
  /** Stable short reference: `interface.md#paging-1`, `D2`. */
  readonly ref: string
  /** Where it stands: the section of interface.md, or the decision's title. */
  readonly where: string
  /** The sentence of interface.md, quoted; for a decision, what it decides in short. */
  readonly quote: string
}

const statement = (ref: string, where: string, quote: string): Source => ({ kind: 'interface', ref: `interface.md#${ref}`, where, quote })
const decision = (ref: string, where: string, quote: string): Source => ({ kind: 'decision', ref, where, quote })

/** The statements of interface.md a rule checks, by stable id. */
export const IFACE = {
  ohlcv: statement('ohlcv', 'What the service does', 'The service serves historical and recent OHLCV candles (open, high, low, close, base volume, quote volume) for trading pairs, read-only.'),
  fields: statement('fields', 'Resources and their fields', 'The tables of Exchange, Asset, Pair coverage entry, Exchange candle and Aggregated candle: each field and its type (string, number, date, ISO 8601 UTC datetime, array of string, or null where stated).'),
  coverageFirst: statement('coverage-first', 'Resources and their fields: Pair coverage entry', 'first_close_ts: Earliest close_ts of that pair under the filters that scoped the call'),
  coverageLast: statement('coverage-last', 'Resources and their fields: Pair coverage entry', 'last_close_ts: Latest close_ts under the same filters'),
  closingDate: statement('closing-date', 'Resources and their fields: Exchange', 'closing_date: null when the exchange has not closed'),
  contributors: statement('contributors', 'Resources and their fields: Aggregated candle', 'exchanges: The exchanges that actually contributed to this specific candle, after any outlier exclusion'),
  bareArray: statement('conventions-1', 'Endpoints: Conventions for all endpoints', 'Every successful response is a bare JSON array: no wrapper object and no total count.'),
  ascending: statement('conventions-2', 'Endpoints: Conventions for all endpoints', 'Candle arrays are ordered by close_ts ascending.'),
  checkedBeforeLogged: statement('conventions-3', 'Endpoints: Conventions for all endpoints', 'Every parameter, valid or not, is checked before the call is logged for usage.'),
  methodUnion: statement('catalog-method-union', 'Catalog endpoints: Rules', 'When `method` is omitted on aggregated_pairs, all methods are unioned together.'),
  catalog404: statement('catalog-404', 'Catalog endpoints: Rules', 'On exchange_pairs and aggregated_pairs, an exchange, interval or method value that does not resolve to a known one returns 404, not an empty array.'),
  catalog422: statement('catalog-422', 'Catalog endpoints: Rules', 'A required parameter that is left out returns 422.'),
  required: statement('required', 'GET /v1/exchange_ohlcv, GET /v1/aggregated_ohlcv', 'exchange, interval, base, quote: Required: yes'),
  datetime: statement('datetime', 'GET /v1/exchange_ohlcv, GET /v1/aggregated_ohlcv', 'start, end: datetime, ISO 8601'),
  start: statement('start', 'GET /v1/exchange_ohlcv, GET /v1/aggregated_ohlcv', 'start: Only candles with close_ts >= start. Anchors the page forward from this point, even when `end` is also set.'),
  end: statement('end', 'GET /v1/exchange_ohlcv, GET /v1/aggregated_ohlcv', 'end: Only candles with close_ts <= end. Omitted means the latest available.'),
  limit: statement('limit', 'GET /v1/exchange_ohlcv, GET /v1/aggregated_ohlcv', 'limit: 1 to 1000; default 500; applied as a true row limit on the query'),
  method: statement('method', 'GET /v1/aggregated_ohlcv', 'method: Default and only value today: "omm_vwap_v1"'),
  paging1: statement('paging-1', 'Paging rules for both candle endpoints', 'With `start` set, the page is the first `limit` candles with close_ts >= start (and <= end if set), ascending. The next page is fetched by repeating the request with `start` set to just after the last close_ts received. This holds even when `end` is set and the window holds more than `limit` candles; `end` only caps how far forward the page reaches and never moves the anchor.'),
  paging2: statement('paging-2', 'Paging rules for both candle endpoints', 'With `start` omitted, the response holds the most recent `limit` candles (up to `end` if set), returned ascending by close_ts. The previous page is fetched by setting `end` to just before the earliest close_ts received.'),
  keyRequired: statement('auth-1', 'Authentication', '/v1/exchange_ohlcv and /v1/aggregated_ohlcv require an API key sent in the request header `X-API-Key`'),
  catalogPublic: statement('auth-2', 'Authentication', 'The four catalog endpoints (exchanges, assets, exchange_pairs, aggregated_pairs) are public: no key, no plan check, and their calls are never counted in usage.'),
  plan403: statement('auth-5', 'Authentication', "Calling an endpoint or interval that the plan does not include, or giving `start` beyond the plan's history depth, fails with status 403."),
  rejectedNotCounted: statement('auth-6', 'Authentication', 'A request rejected for authentication or permission reasons is never counted in usage.'),
  rate: statement('limits-rate', 'Limits', 'Request rate: 10 requests per second, counted usage of authenticated endpoints'),
} as const

/** The decisions of decisions.md a rule checks (how the reference fills interface.md's gaps). */
export const DECISION = {
  D1: decision('D1', 'Error bodies (FastAPI / pydantic v2 convention)', 'every error is JSON with one key, `detail`: an array of issues {type, loc, msg, input, ctx} on a 422, one string naming the value otherwise'),
  D2: decision('D2', 'Authentication (FastAPI APIKeyHeader convention)', 'a missing, empty or unknown key on a candle endpoint: 401 "Not authenticated" / "Invalid API key" with WWW-Authenticate: APIKey; the catalog ignores the header entirely'),
  D3: decision('D3', 'Order of checks on the candle endpoints', '401, then 422 (limit 1..1000, parseable datetimes, start <= end), then 404, then 403, then 429; only a 200 is counted'),
  D4: decision('D4', 'Resolution on every endpoint', 'an exchange, interval, method or pair that does not resolve is a 404 on every endpoint that takes it, candle endpoints included; values match case-sensitively'),
  D5: decision('D5', 'Time', 'close_ts is the end boundary of the interval, written YYYY-MM-DDTHH:MM:SSZ; a start/end that is not ISO 8601 is a 422'),
  D6: decision('D6', 'Plans and history depth', 'the 403 names the depth; without start, a page stops at the horizon with [] instead of failing'),
  D7: decision('D7', 'Rate limit', 'over 10 a second: 429 with Retry-After and RateLimit-Limit/Remaining/Reset; candle 200s carry RateLimit-*; a 429 does not use up the window'),
  D8: decision('D8', 'Ordering of catalog arrays', 'exchanges by name, assets by ticker, pair coverage entries by base then quote, ascending'),
  D9: decision('D9', 'The aggregation omm_vwap_v1', 'aggregated prices are volume-weighted means of the contributors (low <= open, close <= high), volumes are sums, exchanges ascending, at least one'),
  D12: decision('D12', 'Everything that is not a GET on a known path', 'unknown path: 404 {"detail":"Not Found"}; another method on a known path: 405 with Allow: GET'),
  D13: decision('D13', "The reference's own forms (D13 lists what a client accepts besides)", 'the reference writes every field interface.md lists, null ones included, and no other field'),
} as const

/** A source as one line: `interface.md#paging-1 (Paging rules ...): "With start set ..."`. */
export function describeSource(source: Source): string {
  return `${source.ref} (${source.where}): ${source.kind === 'interface' ? `"${source.quote}"` : source.quote}`
}
