/*
 * The public API of `market-candles`. Every name here is one the package keeps stable: add a name
 * deliberately, and update the pinned list in test/public-api.test.ts with it. What the reference
 * service shares with the SDK (src/contract) is internal and never exported.
 */

// The client, its options and the parameters of its methods
export { createClient, MarketCandles } from './client/index.js'
export type {
  CandleOf,
  ClientOptions,
  RequestOptions,
  APIPromise,
  WithResponse,
  Logger,
  LogLevel,
  RetryOptions,
  ClientHooks,
  RequestEvent,
  DateInput,
  ExchangePairsParams,
  AggregatedPairsParams,
  ExchangeOhlcvParams,
  AggregatedOhlcvParams,
  WithTimes,
} from './client/index.js'

// Errors: one class per status on a common base; transport and response-validation errors apart
export {
  MarketCandlesError,
  APIError,
  AuthenticationError,
  PermissionDeniedError,
  NotFoundError,
  UnprocessableEntityError,
  RateLimitError,
  InternalServerError,
  APIConnectionError,
  APITimeoutError,
  APIUserAbortError,
  InvalidParamsError,
  ResponseValidationError,
  PaginationError,
} from './errors/index.js'
export type { RequestInfo } from './errors/index.js'

// Walks and cursors: walks come from the client's methods, so only their types are public
export { pageCursorSchema } from './pagination/index.js'
export type { PageCursor, CandlePage, PageWalk, CandleWalk, WalkOptions, ToArrayOptions, GapReport, CandleGap } from './pagination/index.js'

// Candles at any interval from the service's own: resample a walk or an array
export { resample, ResampleError } from './analysis/index.js'
export type { ResampleOptions, ResampledCandle, BucketFill } from './analysis/index.js'

// Following the newest candles: follows come from the client's methods, so only their types are public
export type { CandleFollow, FollowMany, FollowCursor, FollowManyCursor, FollowEnd, FollowEvent, FollowOptions, FollowPage, FollowSeries, FollowSeriesId, FollowSeriesState, FollowState, FollowStatus } from './follow/index.js'

// Client-side rate limiting, shareable between the clients of one account
export { RateLimiter } from './rate-limit/rate-limiter.js'
export type { RateLimiterOptions } from './rate-limit/rate-limiter.js'
export type { ReleaseSlot, SlotAnswer, SlotLimiter } from './rate-limit/slot-limiter.js'

// Resources: their schemas and types, and guards for the values of open enums
// (the full schema set, error bodies and known-value lists included, is `market-candles/schemas`)
export { exchangeSchema, assetSchema, pairCoverageSchema, exchangeCandleSchema, aggregatedCandleSchema } from './schemas/index.js'
export { isKnownInterval, isKnownMethod, isKnownFlag, isKnownAssetType } from './schemas/index.js'
export type {
  Exchange,
  Asset,
  AssetType,
  PairCoverage,
  ExchangeCandle,
  AggregatedCandle,
  AnyCandle,
  Interval,
  KnownInterval,
  Method,
  Flag,
  OpenEnum,
  ValidationIssue,
  ErrorBody,
  ValidationErrorBody,
} from './schemas/index.js'

// Wire constants
export { API_KEY_HEADER, DEFAULT_BASE_URL } from './contract/endpoints.js'
export type { EndpointName, CandleEndpointName } from './contract/index.js'
