import * as z from 'zod/mini'
import { isKnown, openEnum } from './open-enum.js'

/** The aggregation methodologies the service serves today (the methodology is versioned by name). */
export const METHODS = ['omm_vwap_v1'] as const

/** The method used when a request gives none. */
export const DEFAULT_METHOD = 'omm_vwap_v1' satisfies (typeof METHODS)[number]

/** An aggregation methodology: `"omm_vwap_v1"` or a newer value from the service. */
export const methodSchema = openEnum(METHODS)
/** An aggregation methodology: `"omm_vwap_v1"` or a newer value from the service. */
export type Method = z.infer<typeof methodSchema>

/**
 * True when `value` is a method this version of the package knows.
 * @example
 * if (!isKnownMethod(candle.method)) console.warn(`a methodology newer than this package: ${candle.method}`)
 */
export const isKnownMethod = (value: string | null | undefined): value is (typeof METHODS)[number] =>
  isKnown(METHODS, value)
