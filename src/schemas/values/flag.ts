import * as z from 'zod/mini'
import { FLAGS } from './known-values.js'
import { openEnum } from './open-enum.js'

export { FLAGS, isKnownFlag } from './known-values.js'

/** A candle flag: `null` (normal), `"outlier"`, `"outlier_excluded"`, or a newer value from the service. */
export const flagSchema = z.nullable(openEnum(FLAGS))
/** A candle flag: `null` (normal), `"outlier"`, `"outlier_excluded"`, or a newer value from the service. */
export type Flag = z.infer<typeof flagSchema>
