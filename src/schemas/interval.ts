import * as z from 'zod/mini'
import { isKnown, openEnum } from './open-enum.js'

/** The candle intervals the service serves today. */
export const INTERVALS = ['1m', '1h', '1d'] as const

/** A candle interval known to this version of the package. */
export type KnownInterval = (typeof INTERVALS)[number]

/** A candle interval: `"1m"`, `"1h"`, `"1d"`, or a newer value from the service. */
export const intervalSchema = openEnum(INTERVALS)
/** A candle interval: `"1m"`, `"1h"`, `"1d"`, or a newer value from the service. */
export type Interval = z.infer<typeof intervalSchema>

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
