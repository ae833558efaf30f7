import type { Rule } from '../rule.js'
import { auth401, orderOfChecks } from './auth.js'
import { aggregatedExchanges, closeOnGrid, ohlcOrder, volumesNonNegative } from './candle-data.js'
import { catalogCoverage, catalogNoKey, catalogOrder } from './catalog.js'
import { catalogNotCounted, errorsNotCounted } from './counting.js'
import { openapi } from './openapi.js'
import { otherRequests } from './other-requests.js'
import { ascending, endWithoutStart, forwardBackward, inclusiveBounds, latestPage, startAnchor, startAnchorWithEnd } from './paging.js'
import { methodDefault, pairsMethodUnion } from './method.js'
import { planAccess, planDepth } from './plans.js'
import { rateLimit, rateLimitHeaders } from './rate-limit.js'
import { resolution404 } from './resolution.js'
import { fractionalBounds, offsetBounds } from './time.js'
import { defaultLimit, limitBounds, validation422 } from './validation.js'

export { KNOWN_PLANS } from './plans.js'

/** Every rule, in the order they run and are reported (those that look at every answer last). */
export const RULES: readonly Rule[] = [
  catalogOrder,
  catalogCoverage,
  catalogNoKey,
  auth401,
  orderOfChecks,
  validation422,
  limitBounds,
  defaultLimit,
  resolution404,
  startAnchor,
  startAnchorWithEnd,
  latestPage,
  inclusiveBounds,
  endWithoutStart,
  forwardBackward,
  fractionalBounds,
  offsetBounds,
  methodDefault,
  pairsMethodUnion,
  catalogNotCounted,
  errorsNotCounted,
  planAccess,
  planDepth,
  otherRequests,
  rateLimit,
  ascending,
  closeOnGrid,
  ohlcOrder,
  volumesNonNegative,
  aggregatedExchanges,
  rateLimitHeaders,
  openapi,
]
