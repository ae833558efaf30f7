/*
 * `market-candles/schemas`: the zod schemas (zod/mini) of every resource and error body the service
 * answers with, the known values of its open enums and their guards. Every name is public: the
 * pinned list is in test/public-api.test.ts. Its rooms: values/ (the open enums, their known values,
 * timestamps), resources/ (built of those), error-body.ts; wire/ is internal, never exported here:
 * wire/compiled.ts (zod's compiled parser, for the reference service's own response check),
 * wire/wire-shape.ts and wire/wire-shapes.ts (the SDK's zod-free checks).
 */

// Open enums: values newer than this package pass validation; the guards tell them apart
export type { OpenEnum } from './values/open-enum.js'
export { INTERVALS, INTERVAL_MS, intervalSchema, isKnownInterval } from './values/interval.js'
export type { Interval, KnownInterval } from './values/interval.js'
export { METHODS, DEFAULT_METHOD, methodSchema, isKnownMethod } from './values/method.js'
export type { Method } from './values/method.js'
export { FLAGS, flagSchema, isKnownFlag } from './values/flag.js'
export type { Flag } from './values/flag.js'
export { ASSET_TYPES, assetTypeSchema, isKnownAssetType } from './resources/asset.js'
export type { AssetType } from './resources/asset.js'

// Timestamps as the service writes them
export { timestampSchema, dateSchema } from './values/timestamp.js'

// Resources
export { exchangeSchema } from './resources/exchange.js'
export type { Exchange } from './resources/exchange.js'
export { assetSchema } from './resources/asset.js'
export type { Asset } from './resources/asset.js'
export { pairCoverageSchema } from './resources/pair-coverage.js'
export type { PairCoverage } from './resources/pair-coverage.js'
export { exchangeCandleSchema } from './resources/exchange-candle.js'
export type { ExchangeCandle } from './resources/exchange-candle.js'
export { aggregatedCandleSchema } from './resources/aggregated-candle.js'
export type { AggregatedCandle } from './resources/aggregated-candle.js'
export type { AnyCandle } from './resources/any-candle.js'

// Error bodies
export { errorBodySchema, validationErrorBodySchema, validationIssueSchema } from './error-body.js'
export type { ErrorBody, ValidationErrorBody, ValidationIssue } from './error-body.js'
