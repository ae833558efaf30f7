import * as z from 'zod/mini'
import { componentSchemas, inlineSchema, type SchemaMeta } from '../../../src/openapi/json-schema.js'
import { assetSchema, errorBodySchema, exchangeSchema, validationErrorBodySchema, validationIssueSchema } from '../../../src/schemas/index.js'
import { planSchema } from '../../data/accounts.js'
import { MAX_CONTROL_BODY, MAX_DATA_BODY } from './control-limits.js'
import {
  anyCandleSchema,
  clockSchema,
  clockUpdateSchema,
  dataChangeSchema,
  faultIdSchema,
  generateSpecSchema,
  healthSchema,
  keyPutAnswerSchema,
  keyPutBodySchema,
  pendingFaultSchema,
  usageSchema,
  waitTimeoutSchema,
} from './control-schemas.js'
import { faultSchema, latencySchema } from '../faults/fault-schema.js'
import { journalEntrySchema, rejectionReasonSchema } from '../journal/journal-entry.js'
import { MAX_WAIT_MS, requestsQuerySchema } from '../journal/requests-query.js'
import { variantPutSchema, variantStateSchema } from '../variant/variant-bodies.js'

const ref = (id: string) => ({ $ref: `#/components/schemas/${id}` })
const json = (schema: unknown, description: string) => ({ description, content: { 'application/json': { schema } } })
const NO_CONTENT = { description: 'Done; no body.' }
const FORBIDDEN = json(ref('ErrorBody'), 'The request carries an `Origin` header (a browser page): every `/_mock` route refuses it, so a web page cannot change a local server\'s state.')
const INVALID = json(ref('ValidationErrorBody'), 'A bad body or query, in the service\'s 422 format with `loc: ["body", ...]` or `["query", ...]`; nothing changed.')
const TOO_LARGE = json(ref('ErrorBody'), `A body over ${MAX_CONTROL_BODY / 1024} KiB (MAX_CONTROL_BODY).`)
const DATA_TOO_LARGE = json(ref('ErrorBody'), `A body over ${MAX_DATA_BODY / 1024 / 1024} MiB (MAX_DATA_BODY); the server stops reading it there.`)
const ROW_INVALID = json(
  ref('ValidationErrorBody'),
  'Bad rows, in the service\'s 422 format: one issue per bad row and rule, `loc: ["body", INDEX, FIELD]` (or `["query", NAME]`, `["path", NAME]`); nothing changed.',
)
const UNAUTHORIZED = json(ref('ErrorBody'), 'The server was started with a control token (`serve --control-token`, `MARKET_CANDLES_CONTROL_TOKEN`, `startMockServer({ controlToken })`) and the request lacks `Authorization: Bearer <token>`; the answer carries `WWW-Authenticate: Bearer`.')
const body = (schema: unknown, description?: string) => ({ required: true, ...(description ? { description } : {}), content: { 'application/json': { schema } } })
const nameParameter = (name: string, description: string) => ({ name, in: 'path', required: true, description, schema: { type: 'string', minLength: 1 } })

function registry() {
  const r = z.registry<SchemaMeta>()
  r.add(faultSchema, { id: 'Fault', description: 'A fault to inject. Which requests: `path`, `query` and `account` match, after the first `after` of them, each with `probability` (drawn from `seed`), for `times` requests. What happens: `kind`. Fields of another kind are refused.' })
  r.add(latencySchema, { id: 'Latency', description: 'A delay in milliseconds: a number, or `{"dist": "uniform", "min_ms", "max_ms"}`, or `{"dist": "lognormal", "median_ms", "sigma"}` (seeded by the fault\'s `seed`; at most 600000).' })
  r.add(pendingFaultSchema, { id: 'PendingFault', description: 'A queued fault as given, with its `id` and the requests it still applies to (`times`, null for unlimited).' })
  r.add(faultIdSchema, { id: 'FaultId' })
  r.add(clockUpdateSchema, { id: 'ClockUpdate', description: 'At most one of `now` (set the clock) and `advance_ms` (move it), and/or `rate` (run it at that many times wall speed; 0 fixes it).' })
  r.add(clockSchema, { id: 'Clock', description: 'The service clock, ISO 8601, and its rate (clock ms per wall ms; 0 when fixed).' })
  r.add(variantPutSchema, {
    id: 'VariantPut',
    description:
      'How the service fills the gaps of interface.md from now on: `preset` (a name of `SERVICE_VARIANTS`: reference, timestamps-offset, timestamps-micro, timestamps-millis, missing-key-403, errors-pydantic-v1, errors-detail-string, errors-text, rate-limit-retry-after, rate-limit-none, null-fields-omitted, extra-fields, python-stack) and/or the fields, over it. A field left out is the reference\'s choice (D1-D12); `{}` is the reference.',
  })
  r.add(variantStateSchema, { id: 'VariantState', description: 'Every field of the variant as applied, and the name of the preset it equals (null: none).' })
  r.add(usageSchema, { id: 'Usage', description: 'Counted calls per account id, zeros included.' })
  r.add(healthSchema, { id: 'Health', description: 'The server answers; `sessions` is how many sessions exist.' })
  r.add(journalEntrySchema, { id: 'JournalEntry', description: 'One request the service answered. The API key is never recorded; `account` is the account it acts as.' })
  r.add(rejectionReasonSchema, { id: 'RejectionReason', description: 'Why a request was refused: the fields of a 422, the rule of a 401, 403, 404 or 405, the window of a 429.' })
  r.add(waitTimeoutSchema, { id: 'WaitTimeout', description: 'The wait form ran out of time: what it waited for, and the matching requests that did arrive.' })
  r.add(errorBodySchema, { id: 'ErrorBody' })
  r.add(validationErrorBodySchema, { id: 'ValidationErrorBody' })
  r.add(validationIssueSchema, { id: 'ValidationIssue' })
  r.add(anyCandleSchema, { id: 'AnyCandle', description: 'An exchange candle (with `exchange`, `source_provider`, `source_channel`) or an aggregated one (with `method` and `exchanges`): the rows `GET /v1/exchange_ohlcv` and `GET /v1/aggregated_ohlcv` answer.' })
  r.add(dataChangeSchema, { id: 'DataChange', description: 'How many candles the change stored, generated or removed.' })
  r.add(generateSpecSchema, { id: 'GenerateSpec', description: 'A procedural series from the default dataset\'s model: close times `from` to `to` inclusive (ISO datetime or date, or epoch ms), on the interval\'s grid; `seed` (default 1), `price` level (default 100), `volatility` (default 1).' })
  r.add(exchangeSchema, { id: 'Exchange', description: 'An exchange as `GET /v1/exchanges` lists it; `name` may be left to the path. A `closing_date` ends its history there.' })
  r.add(assetSchema, { id: 'Asset', description: 'An asset as `GET /v1/assets` lists it; `ticker` may be left to the path.' })
  r.add(planSchema, { id: 'Plan', description: 'Per candle endpoint, the intervals the plan includes and how far back `start` may reach (ISO 8601 duration, null: unlimited); `id` may be left to the path.' })
  r.add(keyPutBodySchema, { id: 'KeyPut', description: 'The account the key acts as: created with `plan` when new; moved to `plan` when given.' })
  r.add(keyPutAnswerSchema, { id: 'KeyPutAnswer', description: 'The key\'s account and the plan given (null when none was); never the key.' })
  return r
}

/** The query parameters of `GET /_mock/requests`, from the schema that checks them. */
function requestsParameters(r: z.core.$ZodRegistry<SchemaMeta>) {
  const DESCRIPTIONS: Record<string, string> = {
    path: 'Only requests to this exact path.',
    status: 'Only requests answered with this status.',
    account: 'Only requests whose key acts as this account.',
    method: 'Only requests with this method.',
    since: 'Only requests after this `seq` number, or at or after this ISO 8601 instant (wall clock).',
    wait_for: 'Wait until this many matching requests are in the journal (those already there count), then answer them.',
    timeout_ms: `How long the wait form waits before a 408, at most ${MAX_WAIT_MS}; default 5000.`,
  }
  return Object.entries(requestsQuerySchema.def.shape).map(([name, schema]) => ({
    name,
    in: 'query',
    required: false,
    description: DESCRIPTIONS[name],
    schema: withoutZodFormats(inlineSchema((schema as z.ZodMiniOptional).def.innerType as z.ZodMiniType, r)),
  }))
}

/**
 * The OpenAPI 3.1 document of the reference service's control plane (`/_mock/...`), built from the
 * zod schemas that check its bodies and queries. Served at `GET /_mock/openapi.json`.
 *
 * @example
 * const doc = buildControlPlaneOpenApi()
 * Object.keys(doc.paths) // ['/_mock/health', '/_mock/requests', ...]
 */
export function buildControlPlaneOpenApi(): Record<string, unknown> {
  const r = registry()
  const guarded = (responses: Record<string, unknown>) => ({ ...responses, 401: UNAUTHORIZED, 403: FORBIDDEN })
  return {
    openapi: '3.1.0',
    jsonSchemaDialect: 'https://json-schema.org/draft/2020-12/schema',
    info: {
      title: 'market-candles reference service: control plane',
      version: 'v1',
      description:
        'The `/_mock` routes of `market-candles serve`, for test suites in any language: the request journal, injected faults, usage, the clock, the variant (how it fills the gaps of interface.md), reset, and the data, keys and plans it serves. Under `/_sessions/{session}` every route acts on that session only (created on first use). A server started with a control token (`serve --control-token`) requires `Authorization: Bearer <token>` on every route.',
      license: { name: 'MIT', identifier: 'MIT' },
    },
    servers: [
      { url: 'http://127.0.0.1:4010', description: 'The reference service: `npx market-candles serve`' },
      { url: 'http://127.0.0.1:4010/_sessions/{session}', description: 'One session of it', variables: { session: { default: 'default', description: '1 to 64 letters, digits, `.`, `_`, `~` or `-`' } } },
    ],
    paths: {
      '/_mock/health': { get: { operationId: 'health', summary: 'Is the server up', responses: guarded({ 200: json(ref('Health'), 'Up.') }) } },
      '/_mock/requests': {
        get: {
          operationId: 'listRequests',
          summary: 'The request journal, oldest first; with wait_for, once that many matching requests arrived',
          parameters: requestsParameters(r),
          responses: guarded({
            200: json({ type: 'array', items: ref('JournalEntry') }, 'The matching requests.'),
            408: json(ref('WaitTimeout'), 'The wait form ran out of time.'),
            409: json(ref('ErrorBody'), 'The wait form, with the journal switched off (`serve --journal-size 0`).'),
            503: json(ref('ErrorBody'), 'The wait form, when the server closes before the requests arrived.'),
            422: INVALID,
          }),
        },
        delete: { operationId: 'clearRequests', summary: 'Empty the journal', responses: guarded({ 204: NO_CONTENT }) },
      },
      '/_mock/usage': { get: { operationId: 'usage', summary: 'Counted calls per account', responses: guarded({ 200: json(ref('Usage'), 'Usage.') }) } },
      '/_mock/reset': {
        post: { operationId: 'reset', summary: 'Data, plans, keys, usage, rate windows, clock, journal back to the start; faults dropped (on the root: every session too)', responses: guarded({ 204: NO_CONTENT }) },
      },
      '/_mock/faults': {
        get: { operationId: 'listFaults', summary: 'The pending faults, in the order they apply', responses: guarded({ 200: json({ type: 'array', items: ref('PendingFault') }, 'Pending faults.') }) },
        post: {
          operationId: 'addFault',
          summary: 'Inject a fault',
          requestBody: { required: true, content: { 'application/json': { schema: ref('Fault') } } },
          responses: guarded({ 201: json(ref('FaultId'), 'Queued.'), 413: TOO_LARGE, 422: INVALID }),
        },
        delete: { operationId: 'clearFaults', summary: 'Drop every fault', responses: guarded({ 204: NO_CONTENT }) },
      },
      '/_mock/clock': {
        get: { operationId: 'clock', summary: 'The service clock', responses: guarded({ 200: json(ref('Clock'), 'Now.') }) },
        post: {
          operationId: 'setClock',
          summary: 'Set, move or run the service clock',
          requestBody: { required: true, content: { 'application/json': { schema: ref('ClockUpdate') } } },
          responses: guarded({ 200: json(ref('Clock'), 'The new now.'), 413: TOO_LARGE, 422: INVALID }),
        },
      },
      '/_mock/variant': {
        get: { operationId: 'variant', summary: 'How the service fills the gaps of interface.md (its variant)', responses: guarded({ 200: json(ref('VariantState'), 'The variant.') }) },
        put: {
          operationId: 'setVariant',
          summary: 'Answer as another common deployment does: timestamp form, status of a missing key, error bodies, rate-limit headers, null fields, extra fields',
          description: 'Applies to the public interface\'s answers from the next request on (never to `/_mock`, never to an injected fault\'s own answer). `POST /_mock/reset` restores the variant the server started with (`serve --variant`).',
          requestBody: { required: true, content: { 'application/json': { schema: ref('VariantPut') } } },
          responses: guarded({ 200: json(ref('VariantState'), 'The variant now applied.'), 413: TOO_LARGE, 422: INVALID }),
        },
      },
      '/_mock/data/candles': {
        post: {
          operationId: 'putCandles',
          summary: 'Store candles at their close times, replacing what their series had there; new series and pairs join the catalog',
          description: `The batch is checked whole first: a bad row is a 422 naming every bad row by index and rule, and nothing changes. Takes up to ${MAX_DATA_BODY / 1024 / 1024} MiB (MAX_DATA_BODY; 100,000 candles are about 25 MB).`,
          requestBody: body({ type: 'array', items: ref('AnyCandle') }),
          responses: guarded({ 200: json(ref('DataChange'), 'Stored.'), 413: DATA_TOO_LARGE, 422: ROW_INVALID }),
        },
        delete: {
          operationId: 'removeCandles',
          summary: 'Drop the candles of one series between two close times, inclusive (an outage)',
          parameters: [
            { name: 'exchange', in: 'query', required: false, description: 'The exchange series; required unless `aggregated=true`.', schema: { type: 'string' } },
            { name: 'aggregated', in: 'query', required: false, description: '`true`: the aggregated series instead of an exchange\'s.', schema: { type: 'string', enum: ['true', 'false'] } },
            { name: 'method', in: 'query', required: false, description: 'With `aggregated=true`: the aggregation method.', schema: { type: 'string' } },
            { name: 'interval', in: 'query', required: true, schema: { type: 'string' } },
            { name: 'base', in: 'query', required: true, schema: { type: 'string' } },
            { name: 'quote', in: 'query', required: true, schema: { type: 'string' } },
            { name: 'from', in: 'query', required: false, description: 'First close time dropped (ISO datetime or date, or epoch ms); default the series\' beginning.', schema: { type: 'string' } },
            { name: 'to', in: 'query', required: false, description: 'Last close time dropped; default the series\' end.', schema: { type: 'string' } },
          ],
          responses: guarded({ 200: json(ref('DataChange'), 'Removed.'), 422: ROW_INVALID }),
        },
      },
      '/_mock/data/exchanges/{name}': {
        put: {
          operationId: 'putExchange',
          summary: 'Add an exchange or replace it',
          parameters: [nameParameter('name', 'The exchange\'s name; the body\'s `name`, when given, must match.')],
          requestBody: body(ref('Exchange')),
          responses: guarded({ 200: json(ref('Exchange'), 'Stored.'), 413: TOO_LARGE, 422: ROW_INVALID }),
        },
      },
      '/_mock/data/assets/{ticker}': {
        put: {
          operationId: 'putAsset',
          summary: 'Add an asset or replace it',
          parameters: [nameParameter('ticker', 'The asset\'s ticker; the body\'s `ticker`, when given, must match.')],
          requestBody: body(ref('Asset')),
          responses: guarded({ 200: json(ref('Asset'), 'Stored.'), 413: TOO_LARGE, 422: ROW_INVALID }),
        },
      },
      '/_mock/data/generate': {
        post: {
          operationId: 'generateCandles',
          summary: 'Generate a procedural series for a pair or range',
          requestBody: body(ref('GenerateSpec')),
          responses: guarded({ 200: json(ref('DataChange'), 'Generated.'), 413: TOO_LARGE, 422: ROW_INVALID }),
        },
      },
      '/_mock/data/reset': {
        post: { operationId: 'resetData', summary: 'The data (candles, exchanges, assets) back to what the service started with', responses: guarded({ 204: NO_CONTENT }) },
      },
      '/_mock/keys/{key}': {
        put: {
          operationId: 'putKey',
          summary: 'Add an API key for an account (created when new), or move the key\'s account to a plan; the key is never echoed',
          parameters: [nameParameter('key', 'The API key, percent-encoded. It never appears in an answer, the journal or a log line.')],
          requestBody: body(ref('KeyPut')),
          responses: guarded({ 200: json(ref('KeyPutAnswer'), 'Stored.'), 413: TOO_LARGE, 422: ROW_INVALID }),
        },
      },
      '/_mock/plans': {
        get: { operationId: 'listPlans', summary: 'The plans', responses: guarded({ 200: json({ type: 'array', items: ref('Plan') }, 'Every plan.') }) },
      },
      '/_mock/plans/{name}': {
        put: {
          operationId: 'putPlan',
          summary: 'Add a plan or replace the one with its id',
          parameters: [nameParameter('name', 'The plan\'s id; the body\'s `id`, when given, must match.')],
          requestBody: body(ref('Plan')),
          responses: guarded({ 200: json(ref('Plan'), 'Stored.'), 413: TOO_LARGE, 422: ROW_INVALID }),
        },
      },
      '/_mock/openapi.json': { get: { operationId: 'controlPlaneOpenApi', summary: 'This document', responses: guarded({ 200: json({ type: 'object' }, 'The OpenAPI 3.1 document of the control plane.') }) } },
    },
    components: { schemas: withoutZodFormats(componentSchemas(r)) },
  }
}

// zod names its `startsWith` check as a format; JSON Schema has no such format (the pattern says it).
function withoutZodFormats<T>(value: T): T {
  if (Array.isArray(value)) return value.map(withoutZodFormats) as T
  if (value === null || typeof value !== 'object') return value
  const out: Record<string, unknown> = {}
  for (const [key, inner] of Object.entries(value)) if (!(key === 'format' && inner === 'starts_with')) out[key] = withoutZodFormats(inner)
  return out as T
}
