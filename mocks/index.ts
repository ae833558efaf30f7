/*
 * `market-candles/mocks`: the reference service core, no MSW and no HTTP, and the data it serves.
 * Every name is public: the pinned list is in test/public-api.test.ts.
 */

// The service
export { createMockService } from './core/service.js'
export type { MockService, MockServiceOptions } from './core/service.js'
export type { MockRequest, MockResponse, HeaderSource } from './core/types.js'
export type { DateInput } from '../src/contract/index.js'
export type { MockClock } from './core/clock.js'
export type { FaultQueue, Fault, PendingFault, FaultCapabilities } from './core/faults.js'
export type { Latency } from './core/fault-schema.js'
export type { Delivery } from './core/types.js'
export { RequestWaitTimeoutError, DEFAULT_JOURNAL_SIZE } from './core/journal.js'
export type { WaitOptions } from './core/journal.js'
export type { JournalEntry, JournalFilter, RejectionReason, FaultKind } from './core/journal-entry.js'
export type { JournalView } from './core/journal-view.js'
export type { ClockUpdate } from './core/control-plane-bodies.js'
export { buildControlPlaneOpenApi } from './core/control-openapi.js'
export type { KeyInfo } from './core/key-ring.js'

// Arranging data at run time: service.data, service.keys.put, service.plans
export { DataError } from './core/data-error.js'
export { LoadError } from './data/export-files/load-error.js'
export type { ArrangedCandle, DataChange, DataControl, DataIssue, GenerateSpec, KeyPut, LoadSource, PlanControl, RemoveSelector } from './core/data-control.js'

// Fixtures: the default dataset and demo accounts, your own rows or rules, and the error a bad record throws
export { defaultDataset } from './data/default-dataset.js'
export { demoPlans, demoAccounts, demoKeys, planSchema, accountSchema, apiKeySchema } from './data/accounts.js'
export type { Plan, Account, ApiKey } from './data/accounts.js'
export { explicitStore } from './data/explicit-store.js'
export type { ExplicitDataset } from './data/explicit-store.js'
export { proceduralStore, proceduralDatasetSchema } from './data/procedural-store.js'
export type { ProceduralDataset } from './data/procedural-store.js'
export { FixtureError } from './data/fixture-error.js'
export type { CandleStore, Series, ExchangeSeries, AggregatedSeries, Timed } from './data/series.js'
