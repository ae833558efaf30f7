import { execFileSync } from 'node:child_process'
import { readFileSync } from 'node:fs'
import { fileURLToPath } from 'node:url'
import { describe, expect, test } from 'vitest'

/*
 * Every runtime name an entry point exports is a promise to users. These lists pin them: a name
 * added or removed by accident fails here; one added on purpose is added here too (with a
 * changeset). Checked on the built package (npm test builds it first), ESM and CJS.
 */
const PUBLIC_RUNTIME_EXPORTS: Record<string, readonly string[]> = {
  'market-candles': [
    'APIConnectionError',
    'APIError',
    'APITimeoutError',
    'APIUserAbortError',
    'API_KEY_HEADER',
    'AuthenticationError',
    'DEFAULT_BASE_URL',
    'InternalServerError',
    'InvalidParamsError',
    'MarketCandles',
    'MarketCandlesError',
    'NotFoundError',
    'PaginationError',
    'PermissionDeniedError',
    'RateLimitError',
    'RateLimiter',
    'ResampleError',
    'ResponseValidationError',
    'UnprocessableEntityError',
    'aggregatedCandleSchema',
    'assetSchema',
    'createClient',
    'exchangeCandleSchema',
    'exchangeSchema',
    'isKnownAssetType',
    'isKnownFlag',
    'isKnownInterval',
    'isKnownMethod',
    'pageCursorSchema',
    'pairCoverageSchema',
    'resample',
  ],
  'market-candles/schemas': [
    'ASSET_TYPES',
    'DEFAULT_METHOD',
    'FLAGS',
    'INTERVALS',
    'INTERVAL_MS',
    'METHODS',
    'aggregatedCandleSchema',
    'assetSchema',
    'assetTypeSchema',
    'dateSchema',
    'errorBodySchema',
    'exchangeCandleSchema',
    'exchangeSchema',
    'flagSchema',
    'intervalSchema',
    'isKnownAssetType',
    'isKnownFlag',
    'isKnownInterval',
    'isKnownMethod',
    'methodSchema',
    'pairCoverageSchema',
    'timestampSchema',
    'validationErrorBodySchema',
    'validationIssueSchema',
  ],
  'market-candles/mocks': [
    'DEFAULT_JOURNAL_SIZE',
    'DataError',
    'buildControlPlaneOpenApi',
    'FixtureError',
    'LoadError',
    'RequestWaitTimeoutError',
    'SERVICE_VARIANTS',
    'accountSchema',
    'apiKeySchema',
    'createMockService',
    'defaultDataset',
    'demoAccounts',
    'demoKeys',
    'demoPlans',
    'explicitStore',
    'planSchema',
    'proceduralDatasetSchema',
    'proceduralStore',
    'serviceVariantSchema',
  ],
  'market-candles/mocks/browser': ['setupMockWorker'],
  'market-candles/mocks/msw': ['createHandlers'],
  'market-candles/mocks/node': ['setupMockService'],
  'market-candles/mocks/server': ['CONTROL_TOKEN_ENV', 'MAX_CONTROL_BODY', 'MAX_DATA_BODY', 'answerParserErrors', 'createRequestListener', 'startMockServer'],
  'market-candles/redis': ['RedisLimiterError', 'RedisRateLimiter', 'createRedisRateLimiter'],
}

const ROOT = fileURLToPath(new URL('..', import.meta.url))
const pkg = JSON.parse(readFileSync(`${ROOT}/package.json`, 'utf8'))
// The JSON entries (package.json, openapi.json) are documents, not modules with names.
const ENTRIES = Object.keys(pkg.exports)
  .filter((k) => !k.endsWith('.json'))
  .map((k) => k.replace(/^\./, 'market-candles'))

// msw/browser does not load in Node: the worker entry's names are read from its export statement.
const BROWSER_ONLY = ['market-candles/mocks/browser']
const NODE_ENTRIES = ENTRIES.filter((name) => !BROWSER_ONLY.includes(name))

const node = (args: string[]) => execFileSync(process.execPath, args, { cwd: ROOT, encoding: 'utf8' })
/** Each entry imported in a Node process of its own, once: two tests read its names (a start and its imports cost 0.2-0.7 s of CPU). */
const esmRead = new Map<string, string[]>()
const esmKeys = (name: string): string[] => {
  if (!esmRead.has(name)) esmRead.set(name, JSON.parse(node(['--input-type=module', '-e', `console.log(JSON.stringify(Object.keys(await import(${JSON.stringify(name)}))))`])))
  return [...esmRead.get(name)!]
}
const cjsKeys = (name: string): string[] => JSON.parse(node(['-e', `console.log(JSON.stringify(Object.keys(require(${JSON.stringify(name)}))))`]))
const sorted = (names: readonly string[]) => [...names].sort()

describe('the public API: each entry point exports exactly the runtime names it promises', () => {
  test('every entry point of package.json has a pinned list, and every pinned list an entry point', () => {
    expect(sorted(Object.keys(PUBLIC_RUNTIME_EXPORTS))).toEqual(sorted(ENTRIES))
  })

  test.each(NODE_ENTRIES)('import(%s) exports exactly its pinned names', (name) => {
    expect(sorted(esmKeys(name))).toEqual(sorted(PUBLIC_RUNTIME_EXPORTS[name] ?? []))
  })

  test('market-candles/mocks/browser (ESM, for browsers) exports exactly its pinned names', () => {
    const code = readFileSync(`${ROOT}/dist/mocks/browser.js`, 'utf8')
    const names = [...code.matchAll(/^export \{([^}]*)\};?$/gm)].flatMap((m) => m[1]!.split(',').map((n) => n.trim().split(/\s+as\s+/).pop()!))
    expect(sorted(names)).toEqual(sorted(PUBLIC_RUNTIME_EXPORTS['market-candles/mocks/browser']!))
  })

  test.each(NODE_ENTRIES)('require(%s) exports the same names as import()', (name) => {
    expect(sorted(cjsKeys(name))).toEqual(sorted(PUBLIC_RUNTIME_EXPORTS[name] ?? []))
  })

  test('market-candles exports at most 35 runtime names', () => {
    expect(PUBLIC_RUNTIME_EXPORTS['market-candles']!.length).toBeLessThanOrEqual(35)
  })

  test('no wire helper of the reference service is public (they live in the internal contract module)', () => {
    const internal = ['ENDPOINTS', 'LIMIT', 'compiled', 'rawQueryOf', 'toValidationIssues', 'describeIssue', 'responseSchemas', 'openEnum', 'parseDateTime', 'formatTimestamp', 'exchangeOhlcvQuerySchema']
    for (const name of NODE_ENTRIES) expect(esmKeys(name).filter((k) => internal.includes(k)), name).toEqual([])
  })
})
