import * as z from 'zod/mini'
import { ASSET_TYPES } from '../values/known-values.js'
import { openEnum } from '../values/open-enum.js'

export { ASSET_TYPES, isKnownAssetType } from '../values/known-values.js'

/** `"CRYPTO"`, `"FIAT"`, `"STABLECOIN"`, or a newer value from the service. */
export const assetTypeSchema = openEnum(ASSET_TYPES)
/** `"CRYPTO"`, `"FIAT"`, `"STABLECOIN"`, or a newer value from the service. */
export type AssetType = z.infer<typeof assetTypeSchema>

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
