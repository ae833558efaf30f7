import * as z from 'zod/mini'
import { METHODS } from './known-values.js'
import { openEnum } from './open-enum.js'

export { METHODS, DEFAULT_METHOD, isKnownMethod } from './known-values.js'

/** An aggregation methodology: `"omm_vwap_v1"` or a newer value from the service. */
export const methodSchema = openEnum(METHODS)
/** An aggregation methodology: `"omm_vwap_v1"` or a newer value from the service. */
export type Method = z.infer<typeof methodSchema>
