/*
 * `market-candles/mocks`: the reference service core, no MSW and no HTTP, and the data it serves.
 * Every name is public: the pinned list is in test/public-api.test.ts.
 */

// The service
export { createMockService } from './core/service/service.js'
export type { MockService, MockServiceOptions, SessionOptions } from './core/service/service.js'
export type { MockRequest, MockResponse, HeaderSource } from './core/message/types.js'

// Variants: how the service fills the gaps of interface.md, as other deployments do (D13)
export { SERVICE_VARIANTS, serviceVariantSchema } from './core/variant/index.js'
export type { ResolvedVariant, ServiceVariant, ServiceVariantInput, ServiceVariantName } from './core/variant/index.js'
export type { DateInput } from '../src/contract/index.js'
export type { MockClock } from './core/state/clock.js'
export type { FaultQueue, Fault, PendingFault, FaultCapabilities } from './core/faults/fault-queue.js'
export type { Latency, FaultKind } from './core/faults/fault-schema.js'
export type { Delivery } from './core/message/types.js'
export { RequestWaitTimeoutError, DEFAULT_JOURNAL_SIZE } from './core/journal/journal.js'
export type { WaitOptions } from './core/journal/journal.js'
export type { JournalEntry, JournalFilter, RejectionReason } from './core/journal/journal-entry.js'
export type { JournalView } from './core/service/journal-view.js'
export type { ClockUpdate } from './core/control-plane/control-schemas.js'
export { buildControlPlaneOpenApi } from './core/control-plane/control-openapi.js'
export type { KeyInfo } from './core/state/key-ring.js'

// Arranging data at run time: service.data, service.keys.put, service.plans
export { DataError } from './data/data-error.js'
export { LoadError } from './data/export-files/load-error.js'
export type { DataChange, DataControl, DataIssue, GenerateSpec, KeyPut, LoadSource, PlanControl, RemoveSelector } from './data/arranged-data.js'

// Fixtures: the default dataset and demo accounts, your own rows or rules, and the error a bad record throws
export { defaultDataset } from './data/procedural/default-dataset.js'
export { demoPlans, demoAccounts, demoKeys, planSchema, accountSchema, apiKeySchema } from './data/accounts.js'
export type { Plan, Account, ApiKey } from './data/accounts.js'
export { explicitStore } from './data/explicit-store.js'
export type { ExplicitDataset } from './data/explicit-store.js'
export { proceduralStore, proceduralDatasetSchema } from './data/procedural/procedural-store.js'
export type { ProceduralDataset } from './data/procedural/procedural-store.js'
export { FixtureError } from './data/fixture-error.js'
export type { CandleStore, Series, ExchangeSeries, AggregatedSeries, Timed } from './data/series.js'
