/*
 * `market-candles/schemas`: the zod schemas (zod/mini) of every resource and error body the service
 * answers with, the known values of its open enums and their guards. Every name is public: the
 * pinned list is in test/public-api.test.ts. compiled.ts (zod's compiled parser, for the reference
 * service's own response check), wire-shape.ts and wire-shapes.ts (the SDK's zod-free checks) are internal.
 */

// Open enums: values newer than this package pass validation; the guards tell them apart
export type { OpenEnum } from './open-enum.js'
export { INTERVALS, INTERVAL_MS, intervalSchema, isKnownInterval } from './interval.js'
export type { Interval, KnownInterval } from './interval.js'
export { METHODS, DEFAULT_METHOD, methodSchema, isKnownMethod } from './method.js'
export type { Method } from './method.js'
export { FLAGS, flagSchema, isKnownFlag } from './flag.js'
export type { Flag } from './flag.js'
export { ASSET_TYPES, assetTypeSchema, isKnownAssetType } from './asset.js'
export type { AssetType } from './asset.js'

// Timestamps as the service writes them
export { timestampSchema, dateSchema } from './timestamp.js'

// Resources
export { exchangeSchema } from './exchange.js'
export type { Exchange } from './exchange.js'
export { assetSchema } from './asset.js'
export type { Asset } from './asset.js'
export { pairCoverageSchema } from './pair-coverage.js'
export type { PairCoverage } from './pair-coverage.js'
export { exchangeCandleSchema } from './exchange-candle.js'
export type { ExchangeCandle } from './exchange-candle.js'
export { aggregatedCandleSchema } from './aggregated-candle.js'
export type { AggregatedCandle } from './aggregated-candle.js'
export type { AnyCandle } from './any-candle.js'

// Error bodies
export { errorBodySchema, validationErrorBodySchema, validationIssueSchema } from './error-body.js'
export type { ErrorBody, ValidationErrorBody, ValidationIssue } from './error-body.js'
