import * as z from 'zod/mini'
import type { EndpointName } from './endpoints.js'
import { aggregatedCandleSchema } from '../schemas/resources/aggregated-candle.js'
import { assetSchema } from '../schemas/resources/asset.js'
import { exchangeCandleSchema } from '../schemas/resources/exchange-candle.js'
import { exchangeSchema } from '../schemas/resources/exchange.js'
import { pairCoverageSchema } from '../schemas/resources/pair-coverage.js'

/** The body of a 200 from each endpoint: always a bare JSON array. */
export const responseSchemas = {
  exchanges: z.array(exchangeSchema),
  assets: z.array(assetSchema),
  exchange_pairs: z.array(pairCoverageSchema),
  aggregated_pairs: z.array(pairCoverageSchema),
  exchange_ohlcv: z.array(exchangeCandleSchema),
  aggregated_ohlcv: z.array(aggregatedCandleSchema),
} as const satisfies Record<EndpointName, z.ZodMiniType>

/** The parsed 200 body of an endpoint. */
export type ResponseOf<E extends EndpointName> = z.output<(typeof responseSchemas)[E]>
