import type { Rule } from '../rule.js'
import { auth401, orderOfChecks } from './access/auth.js'
import { aggregatedExchanges, closeOnGrid, ohlcOrder, volumesNonNegative } from './answers/candle-data.js'
import { catalogCoverage, catalogNoKey, catalogOrder } from './answers/catalog.js'
import { catalogNotCounted, errorsNotCounted } from './access/counting.js'
import { openapi } from './answers/openapi.js'
import { otherRequests } from './requests/other-requests.js'
import { ascending, endWithoutStart, forwardBackward, inclusiveBounds, latestPage, startAnchor, startAnchorWithEnd } from './answers/paging.js'
import { methodDefault, pairsMethodUnion } from './answers/method.js'
import { planAccess, planDepth } from './access/plans.js'
import { rateLimit, rateLimitHeaders } from './access/rate-limit.js'
import { resolution404 } from './requests/resolution.js'
import { fractionalBounds, offsetBounds } from './requests/time.js'
import { defaultLimit, limitBounds, validation422 } from './requests/validation.js'

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
