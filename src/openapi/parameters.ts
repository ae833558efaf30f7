import * as z from 'zod/mini'
import { LIMIT } from '../contract/index.js'
import { DEFAULT_METHOD, INTERVALS, METHODS } from '../schemas/index.js'
import { inlineSchema, type JsonSchema, type SchemaMeta } from './json-schema.js'

/** An OpenAPI parameter object. */
export interface ParameterObject {
  name: string
  in: 'query'
  required: boolean
  description: string
  schema: JsonSchema
}

/*
 * The wire query schemas parse raw strings (to report every 422 issue the way the service does), so
 * they have no JSON Schema of their own. These schemas say what a valid value looks like; a test
 * checks them against the parsers (bounds, enums, required), so the two cannot drift apart.
 */
const registry = z.registry<SchemaMeta>()

const nonEmpty = z.string().check(z.minLength(1))
const datetime = z.string().register(registry, {
  format: 'date-time',
  examples: ['2024-05-01T09:00:00Z', '2024-05-01T11:00:00+02:00'],
})

/** What a valid value of each parameter looks like, and what it means. */
export const PARAMETER_VALUES: Record<string, { schema: z.ZodMiniType; description: string }> = {
  exchange: { schema: nonEmpty, description: 'Exchange natural key (`name` in `GET /v1/exchanges`). Matched exactly; an unknown exchange is a 404.' },
  interval: { schema: z.enum(INTERVALS), description: 'Candle interval. Matched exactly; another value is a 404.' },
  base: { schema: nonEmpty, description: 'Base asset ticker (`ticker` in `GET /v1/assets`).' },
  quote: { schema: nonEmpty, description: 'Quote asset ticker (`ticker` in `GET /v1/assets`).' },
  method: {
    schema: z._default(z.enum(METHODS), DEFAULT_METHOD),
    description: `Aggregation methodology, versioned by name. Matched exactly; another value is a 404.`,
  },
  start: {
    schema: datetime,
    description:
      'Only candles with `close_ts >= start`; anchors the page forward from here, even when `end` is set. ISO 8601 with `Z` or an offset, optional fractional seconds; a bare date is midnight UTC, a datetime without zone is UTC. Older than the plan\'s history depth: 403.',
  },
  end: {
    schema: datetime,
    description: 'Only candles with `close_ts <= end`; omitted means the latest available (`close_ts <= now`). Same format as `start`; `start` after `end` is a 422.',
  },
  limit: {
    schema: z._default(z.int().check(z.gte(LIMIT.min), z.lte(LIMIT.max)), LIMIT.default),
    description: `Page size: a true row limit. An integer from ${LIMIT.min} to ${LIMIT.max}; anything else is a 422.`,
  },
}

// On aggregated_pairs an omitted method unions every method: there is no default.
const METHOD_ON_PAIRS = z.enum(METHODS)

/**
 * The parameters of one endpoint, from its wire query schema: every key of its shape, required
 * unless the schema makes it optional.
 */
export function parametersOf(endpoint: string, query: z.ZodMiniObject): ParameterObject[] {
  return Object.entries(query.def.shape).map(([name, param]) => {
    const doc = PARAMETER_VALUES[name]
    if (doc === undefined) throw new Error(`No documentation for the parameter '${name}' of ${endpoint}`)
    const onPairs = endpoint === 'aggregated_pairs' && name === 'method'
    return {
      name,
      in: 'query',
      required: (param as z.ZodMiniType)._zod.optin !== 'optional',
      description: onPairs ? 'Aggregation methodology. Omitted: the pairs of every method, unioned. Another value is a 404.' : doc.description,
      schema: inlineSchema(onPairs ? METHOD_ON_PAIRS : doc.schema, registry),
    }
  })
}
