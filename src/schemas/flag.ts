import * as z from 'zod/mini'
import { isKnown, openEnum } from './open-enum.js'

/**
 * Candle flags: `"outlier"` looks anomalous but is kept in aggregation; `"outlier_excluded"` is
 * anomalous and left out of aggregation.
 */
export const FLAGS = ['outlier', 'outlier_excluded'] as const

/** A candle flag: `null` (normal), `"outlier"`, `"outlier_excluded"`, or a newer value from the service. */
export const flagSchema = z.nullable(openEnum(FLAGS))
/** A candle flag: `null` (normal), `"outlier"`, `"outlier_excluded"`, or a newer value from the service. */
export type Flag = z.infer<typeof flagSchema>

/**
 * True when `value` is a non-null flag this version of the package knows.
 * @example
 * const unusual = candles.filter((c) => c.flag !== null && !isKnownFlag(c.flag)) // flags newer than this package
 */
export const isKnownFlag = (value: string | null | undefined): value is (typeof FLAGS)[number] =>
  isKnown(FLAGS, value)
