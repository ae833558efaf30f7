import { accountSchema, apiKeySchema, demoAccounts, demoKeys, demoPlans, planSchema, type Account, type ApiKey, type Plan } from '../../data/accounts.js'
import { defaultDataset } from '../../data/procedural/default-dataset.js'
import { explicitStore } from '../../data/explicit-store.js'
import { FixtureError, checkRecords } from '../../data/fixture-error.js'
import { proceduralStore } from '../../data/procedural/procedural-store.js'
import type { ExplicitDataset } from '../../data/explicit-store.js'
import type { ProceduralDataset } from '../../data/procedural/procedural-store.js'
import type { CandleStore } from '../../data/series.js'
import { hintOf } from './key-ring.js'

/** What the fixtures are made from: the fixture fields of `MockServiceOptions` (service.ts documents them). */
export interface FixtureOptions {
  data?: ExplicitDataset | ProceduralDataset | CandleStore | undefined
  plans?: Plan[] | undefined
  accounts?: Account[] | undefined
  keys?: ApiKey[] | undefined
}

/** The fixtures of one service, every record validated and every reference resolved. */
export interface Fixtures {
  readonly store: CandleStore
  readonly plans: ReadonlyMap<string, Plan>
  readonly accounts: ReadonlyMap<string, Account>
  readonly keys: readonly ApiKey[]
}

/**
 * Validates the fixtures of `options` (or the demo ones): a bad record throws a `FixtureError` naming
 * it, and a key is only ever quoted by its hint.
 */
export function loadFixtures(options: FixtureOptions): Fixtures {
  const store = toStore(options.data)
  const plans = uniqueBy('plans', checkRecords('plans', options.plans ?? demoPlans, planSchema), (p) => p.id)
  const accounts = uniqueBy('accounts', checkRecords('accounts', options.accounts ?? demoAccounts, accountSchema), (a) => a.id)
  const keys = checkRecords('keys', options.keys ?? demoKeys, apiKeySchema, redactKey)
  const seenKeys = new Set<string>()
  keys.forEach((k, i) => {
    if (seenKeys.has(k.key)) throw new FixtureError(`keys[${i}]: the key ${hintOf(k.key)} appears twice`)
    seenKeys.add(k.key)
  })
  ;[...accounts.values()].forEach((a, i) => {
    if (!plans.has(a.plan)) throw new FixtureError(`accounts[${i}]: unknown plan '${a.plan}'`)
  })
  keys.forEach((k, i) => {
    if (!accounts.has(k.account)) throw new FixtureError(`keys[${i}]: unknown account '${k.account}'`)
  })
  return { store, plans, accounts, keys }
}

function toStore(data: FixtureOptions['data']): CandleStore {
  if (data === undefined) return proceduralStore(defaultDataset)
  if ('seriesOf' in data) return data
  if ('candles' in data) return explicitStore(data)
  if ('listings' in data) return proceduralStore(data)
  throw new FixtureError('data: expected { exchanges, assets, candles }, { exchanges, assets, listings } or a CandleStore')
}

function uniqueBy<T>(name: string, records: T[], key: (r: T) => string): Map<string, T> {
  const map = new Map<string, T>()
  records.forEach((r, i) => {
    if (map.has(key(r))) throw new FixtureError(`${name}[${i}]: duplicate id '${key(r)}'`)
    map.set(key(r), r)
  })
  return map
}

// A key record is quoted with its key replaced by the key's hint.
function redactKey(record: unknown): unknown {
  return record !== null && typeof record === 'object' && typeof (record as ApiKey).key === 'string'
    ? { ...record, key: hintOf((record as ApiKey).key) }
    : record
}
