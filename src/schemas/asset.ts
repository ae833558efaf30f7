import * as z from 'zod/mini'
import { isKnown, openEnum } from './open-enum.js'

/** Asset types observed today. */
export const ASSET_TYPES = ['CRYPTO', 'FIAT', 'STABLECOIN'] as const

/** `"CRYPTO"`, `"FIAT"`, `"STABLECOIN"`, or a newer value from the service. */
export const assetTypeSchema = openEnum(ASSET_TYPES)
/** `"CRYPTO"`, `"FIAT"`, `"STABLECOIN"`, or a newer value from the service. */
export type AssetType = z.infer<typeof assetTypeSchema>

/**
 * True when `value` is an asset type this version of the package knows.
 * @example
 * const fiat = assets.filter((a) => isKnownAssetType(a.asset_type) && a.asset_type === 'FIAT')
 */
export const isKnownAssetType = (value: string | null | undefined): value is (typeof ASSET_TYPES)[number] =>
  isKnown(ASSET_TYPES, value)

/**
 * An asset, as listed by `GET /v1/assets`.
 * @example
 * const asset = assetSchema.parse(JSON.parse(text)) // throws on a record that is not an asset
 */
export const assetSchema = z.object({
  /** Display name. */
  name: z.string(),
  asset_type: assetTypeSchema,
  /** Canonical ticker, the value to use as `base` / `quote` elsewhere. */
  ticker: z.string(),
})
/** An asset, as listed by `GET /v1/assets`. */
export type Asset = z.infer<typeof assetSchema>
