import * as z from 'zod/mini'
import {
  API_KEY_HEADER,
  DEFAULT_BASE_URL,
  ENDPOINTS,
  querySchemas,
  responseSchemas,
  type EndpointName,
} from '../contract/index.js'
import {
  aggregatedCandleSchema,
  assetSchema,
  assetTypeSchema,
  dateSchema,
  errorBodySchema,
  exchangeCandleSchema,
  exchangeSchema,
  flagSchema,
  intervalSchema,
  methodSchema,
  pairCoverageSchema,
  timestampSchema,
  validationErrorBodySchema,
  validationIssueSchema,
} from '../schemas/index.js'
import { componentSchemas, inlineSchema, type JsonSchema, type SchemaMeta } from './json-schema.js'
import { parametersOf } from './parameters.js'
import * as text from './descriptions.js'


const pascal = (name: string) => name.replace(/(^|_)([a-z])/g, (_m, _u, c: string) => c.toUpperCase())
const ref = (kind: 'schemas' | 'headers' | 'responses', id: string) => ({ $ref: `#/components/${kind}/${id}` })

/** The schemas of the document: the same zod schemas the service and the SDK parse with. */
function schemaRegistry() {
  const registry = z.registry<SchemaMeta>()
  registry.add(timestampSchema, { id: 'Timestamp', description: 'An instant in UTC, written `YYYY-MM-DDTHH:MM:SSZ`.' })
  registry.add(dateSchema, { id: 'Date', description: 'A calendar date, `YYYY-MM-DD`.' })
  registry.add(intervalSchema, { id: 'Interval', description: 'A candle interval: `1m`, `1h`, `1d` today; newer values may appear.' })
  registry.add(methodSchema, { id: 'Method', description: 'An aggregation methodology, versioned by name: `omm_vwap_v1` today.' })
  registry.add(flagSchema, { id: 'Flag', description: text.FLAG })
  registry.add(assetTypeSchema, { id: 'AssetType', description: 'Observed values: `CRYPTO`, `FIAT`, `STABLECOIN`; newer values may appear.' })
  registry.add(exchangeSchema, { id: 'Exchange', description: 'An exchange. `closing_date` is null while the exchange has not closed.' })
  registry.add(assetSchema, { id: 'Asset', description: 'An asset. `ticker` is the canonical value to use as `base` / `quote`.' })
  registry.add(pairCoverageSchema, { id: 'PairCoverage', description: text.PAIR_COVERAGE })
  registry.add(exchangeCandleSchema, { id: 'ExchangeCandle', description: text.EXCHANGE_CANDLE })
  registry.add(aggregatedCandleSchema, { id: 'AggregatedCandle', description: text.AGGREGATED_CANDLE })
  registry.add(validationIssueSchema, { id: 'ValidationIssue', description: text.VALIDATION_ISSUE })
  registry.add(validationErrorBodySchema, { id: 'ValidationErrorBody', description: 'The body of a 422: one issue per bad parameter.' })
  registry.add(errorBodySchema, { id: 'ErrorBody', description: 'The body of every error but a 422: one human-readable string naming the offending value.' })
  for (const [endpoint, schema] of Object.entries(responseSchemas)) {
    registry.add(schema, { id: `${pascal(endpoint)}Response`, description: 'A bare JSON array: no wrapper object, no total count.' })
  }
  return registry
}

function headers(registry: z.core.$ZodRegistry<SchemaMeta>): Record<string, JsonSchema> {
  const header = (schema: z.ZodMiniType, description: string) => ({ description, required: true, schema: inlineSchema(schema, registry) })
  return {
    'RateLimit-Limit': header(z.int().check(z.gte(1)), 'Counted requests allowed per second for the account (10).'),
    'RateLimit-Remaining': header(z.int().check(z.gte(0)), 'Counted requests left in the current one-second window.'),
    'RateLimit-Reset': header(z.int().check(z.gte(1)), 'Whole seconds until the oldest counted request leaves the window, at least 1.'),
    'Retry-After': header(z.int().check(z.gte(1)), 'Whole seconds to wait before retrying, at least 1; equal to `RateLimit-Reset`.'),
    'WWW-Authenticate': header(z.literal('APIKey'), `The scheme of the \`${API_KEY_HEADER}\` header.`),
    Allow: header(z.literal('GET'), 'The only method the path answers.'),
  }
}

const jsonContent = (schemaId: string, example?: unknown) => ({
  'application/json': { schema: ref('schemas', schemaId), ...(example === undefined ? {} : { example }) },
})

const RATE_HEADERS = { 'RateLimit-Limit': ref('headers', 'RateLimit-Limit'), 'RateLimit-Remaining': ref('headers', 'RateLimit-Remaining'), 'RateLimit-Reset': ref('headers', 'RateLimit-Reset') }

const RESPONSES = {
  Unauthorized: {
    description: text.UNAUTHORIZED,
    headers: { 'WWW-Authenticate': ref('headers', 'WWW-Authenticate') },
    content: jsonContent('ErrorBody', { detail: 'Not authenticated' }),
  },
  Forbidden: { description: text.FORBIDDEN, content: jsonContent('ErrorBody', { detail: "Interval '1m' of exchange_ohlcv is not included in plan 'free'" }) },
  NotFound: { description: text.NOT_FOUND, content: jsonContent('ErrorBody', { detail: "Unknown exchange 'foo'" }) },
  MethodNotAllowed: {
    description: text.METHOD_NOT_ALLOWED,
    headers: { Allow: ref('headers', 'Allow') },
    content: jsonContent('ErrorBody', { detail: 'Method Not Allowed' }),
  },
  ValidationError: {
    description: text.VALIDATION_ERROR,
    content: jsonContent('ValidationErrorBody', { detail: [{ type: 'missing', loc: ['query', 'exchange'], msg: 'Field required', input: null }] }),
  },
  TooManyRequests: {
    description: text.TOO_MANY_REQUESTS,
    headers: { 'Retry-After': ref('headers', 'Retry-After'), ...RATE_HEADERS },
    content: jsonContent('ErrorBody', { detail: 'Rate limit exceeded: 10 requests per second' }),
  },
}

function operation(endpoint: EndpointName, registry: z.core.$ZodRegistry<SchemaMeta>) {
  const { authenticated } = ENDPOINTS[endpoint]
  const takesParams = endpoint !== 'exchanges' && endpoint !== 'assets'
  const ok = {
    description: text.OK[endpoint],
    ...(authenticated ? { headers: RATE_HEADERS } : {}),
    content: jsonContent(`${pascal(endpoint)}Response`),
  }
  const responses: Record<string, unknown> = { 200: ok }
  if (authenticated) responses[401] = ref('responses', 'Unauthorized')
  if (authenticated) responses[403] = ref('responses', 'Forbidden')
  if (takesParams) responses[404] = ref('responses', 'NotFound')
  if (takesParams) responses[422] = ref('responses', 'ValidationError')
  if (authenticated) responses[429] = ref('responses', 'TooManyRequests')
  return {
    operationId: endpoint.replace(/_([a-z])/g, (_m, c: string) => c.toUpperCase()),
    summary: text.SUMMARY[endpoint],
    description: text.DESCRIPTION[endpoint],
    tags: [authenticated ? 'candles' : 'catalog'],
    ...(authenticated ? { security: [{ ApiKey: [] }] } : {}),
    parameters: parametersOf(endpoint, querySchemas[endpoint] as z.ZodMiniObject),
    responses,
  }
}

/**
 * The OpenAPI 3.1 document of the service, built from the zod schemas the reference service and the
 * SDK parse with. Pure: the same document every call. `npm run openapi` writes it to
 * `docs/openapi.json`; the package exports that file as `market-candles/openapi.json`.
 */
export function buildOpenApiDocument(): Record<string, unknown> {
  const registry = schemaRegistry()
  const paths = Object.fromEntries(
    (Object.keys(ENDPOINTS) as EndpointName[]).map((endpoint) => [
      ENDPOINTS[endpoint].path,
      { get: operation(endpoint, registry), 'x-other-methods': ref('responses', 'MethodNotAllowed') },
    ]),
  )
  return {
    openapi: '3.1.0',
    jsonSchemaDialect: 'https://json-schema.org/draft/2020-12/schema',
    info: { title: 'Market candles API', version: 'v1', description: text.INFO, license: { name: 'MIT', identifier: 'MIT' } },
    servers: [
      { url: DEFAULT_BASE_URL, description: 'Placeholder: set your deployment\'s base URL. The package\'s mocks intercept this one.' },
      { url: 'http://127.0.0.1:4010', description: 'The reference service: `npx market-candles serve`' },
    ],
    tags: [
      { name: 'catalog', description: text.TAG_CATALOG },
      { name: 'candles', description: text.TAG_CANDLES },
    ],
    paths,
    components: {
      schemas: componentSchemas(registry),
      headers: headers(registry),
      responses: RESPONSES,
      securitySchemes: {
        ApiKey: { type: 'apiKey', in: 'header', name: API_KEY_HEADER, description: text.SECURITY },
      },
    },
  }
}
