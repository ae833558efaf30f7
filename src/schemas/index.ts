export { type OpenEnum, openEnum, isKnown } from './open-enum.js'
export { INTERVALS, INTERVAL_MS, intervalSchema, isKnownInterval, type Interval, type KnownInterval } from './interval.js'
export { METHODS, DEFAULT_METHOD, methodSchema, isKnownMethod, type Method } from './method.js'
export { FLAGS, flagSchema, isKnownFlag, type Flag } from './flag.js'
export { timestampSchema, dateSchema } from './timestamp.js'
export { exchangeSchema, type Exchange } from './exchange.js'
export { ASSET_TYPES, assetTypeSchema, assetSchema, isKnownAssetType, type AssetType, type Asset } from './asset.js'
export { pairCoverageSchema, type PairCoverage } from './pair-coverage.js'
export { exchangeCandleSchema, type ExchangeCandle } from './exchange-candle.js'
export { aggregatedCandleSchema, type AggregatedCandle } from './aggregated-candle.js'
export {
  validationIssueSchema,
  validationErrorBodySchema,
  errorBodySchema,
  type ValidationIssue,
  type ValidationErrorBody,
  type ErrorBody,
} from './error-body.js'
