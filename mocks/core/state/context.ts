import type { Account, Plan } from '../../data/accounts.js'
import type { MockClock } from './clock.js'
import type { KeyRing } from './key-ring.js'
import type { RateWindow } from './rate-window.js'
import type { SeriesIndex } from './series-index.js'

/** The state the endpoints read and update. */
export interface ServiceContext {
  readonly index: SeriesIndex
  readonly plans: ReadonlyMap<string, Plan>
  readonly accounts: ReadonlyMap<string, Account>
  readonly keys: KeyRing
  readonly usage: Map<string, number>
  /** Undefined when the rate limit is switched off. */
  readonly rateWindow: RateWindow | undefined
  readonly clock: MockClock
  /** How long after its close a candle becomes visible (contract: reference-service). */
  readonly publishDelayMs: number
}
