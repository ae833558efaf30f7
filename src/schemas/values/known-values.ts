/*
 * The known values of the open enums and their guards, apart from the zod schemas: the SDK's
 * bundle needs these, not zod (interval.ts, method.ts, flag.ts and asset.ts re-export them).
 */

/** A type guard that tells a known value of an open enum from a value newer than this package. */
export function isKnown<const Known extends string>(known: readonly Known[], value: string | null | undefined): value is Known {
  return value != null && (known as readonly string[]).includes(value)
}

/** What an open enum says of a value that is not a string. */
export const openEnumMessage = (known: readonly string[]): string => `Expected a string (known values: ${known.join(', ')})`

/** The candle intervals the service serves today. */
export const INTERVALS = ['1m', '1h', '1d'] as const

/** A candle interval known to this version of the package. */
export type KnownInterval = (typeof INTERVALS)[number]

/** The length of each known interval in milliseconds. */
export const INTERVAL_MS: Readonly<Record<KnownInterval, number>> = {
  '1m': 60_000,
  '1h': 3_600_000,
  '1d': 86_400_000,
}

/**
 * True when `value` is an interval this version of the package knows.
 * @example
 * if (isKnownInterval(candle.interval)) console.log(INTERVAL_MS[candle.interval]) // narrowed to '1m' | '1h' | '1d'
 */
export const isKnownInterval = (value: string | null | undefined): value is KnownInterval => isKnown(INTERVALS, value)

/** The aggregation methodologies the service serves today (the methodology is versioned by name). */
export const METHODS = ['omm_vwap_v1'] as const

/** The method used when a request gives none. */
export const DEFAULT_METHOD = 'omm_vwap_v1' satisfies (typeof METHODS)[number]

/**
 * True when `value` is a method this version of the package knows.
 * @example
 * if (!isKnownMethod(candle.method)) console.warn(`a methodology newer than this package: ${candle.method}`)
 */
export const isKnownMethod = (value: string | null | undefined): value is (typeof METHODS)[number] => isKnown(METHODS, value)

/**
 * Candle flags: `"outlier"` looks anomalous but is kept in aggregation; `"outlier_excluded"` is
 * anomalous and left out of aggregation.
 */
export const FLAGS = ['outlier', 'outlier_excluded'] as const

/**
 * True when `value` is a non-null flag this version of the package knows.
 * @example
 * const unusual = candles.filter((c) => c.flag !== null && !isKnownFlag(c.flag)) // flags newer than this package
 */
export const isKnownFlag = (value: string | null | undefined): value is (typeof FLAGS)[number] => isKnown(FLAGS, value)

/** Asset types observed today. */
export const ASSET_TYPES = ['CRYPTO', 'FIAT', 'STABLECOIN'] as const

/**
 * True when `value` is an asset type this version of the package knows.
 * @example
 * const fiat = assets.filter((a) => isKnownAssetType(a.asset_type) && a.asset_type === 'FIAT')
 */
export const isKnownAssetType = (value: string | null | undefined): value is (typeof ASSET_TYPES)[number] => isKnown(ASSET_TYPES, value)
