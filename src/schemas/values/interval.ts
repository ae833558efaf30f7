import * as z from 'zod/mini'
import { INTERVALS } from './known-values.js'
import { openEnum } from './open-enum.js'

export { INTERVALS, INTERVAL_MS, isKnownInterval, type KnownInterval } from './known-values.js'

/** A candle interval: `"1m"`, `"1h"`, `"1d"`, or a newer value from the service. */
export const intervalSchema = openEnum(INTERVALS)
/** A candle interval: `"1m"`, `"1h"`, `"1d"`, or a newer value from the service. */
export type Interval = z.infer<typeof intervalSchema>
