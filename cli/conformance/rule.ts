import type { Facts } from './facts.js'
import type { KeyRef } from './keys.js'
import type { Answer, Prober } from './prober.js'

export { Skip } from './skip.js'

/** Where docs/contract.md is read by users; a rule's link is this plus its anchor. */
export const CONTRACT_URL = 'https://github.com/market-candles/market-candles/blob/main/docs/contract.md'

/** One failed expectation: the request (key redacted), what was expected and what came back. */
export interface Failure {
  readonly message: string
  readonly request?: string | undefined
  readonly expected?: string | undefined
  readonly actual?: string | undefined
}

/** What a rule's `run` is given. */
export interface RuleContext {
  readonly prober: Prober
  readonly facts: Facts
  /** The key of `--api-key-file` (or MARKET_CANDLES_API_KEY), if any. */
  readonly key: KeyRef | undefined
  /** The keys of `--key-file PLAN=FILE`, by plan. */
  readonly planKeys: ReadonlyMap<string, KeyRef>
  /** Records a failure unless `ok`; the rule goes on, so one run reports every broken case. */
  check(ok: boolean, failure: Failure): boolean
  /** Ends the rule as skipped, with why. */
  skip(reason: string): never
  /**
   * Ends the rule as skipped because what it saw proves neither a pass nor a failure (headers it
   * reads are absent or implausible, a timing it needs did not happen): `inconclusive: <why>`.
   */
  inconclusive(reason: string): never
}

/** A rule of docs/contract.md that can be observed from outside. */
export interface Rule {
  /** Stable id, used in reports and in `--only`. */
  readonly id: string
  /** The rule in the contract's words. */
  readonly title: string
  /** The anchor of its section in docs/contract.md (`paging`, `rate-limit`, ...). */
  readonly anchor: string
  /** Run only when asked for with `--include ID` (the rate-limit burst causes 429s). */
  readonly optIn?: boolean
  /** Rules that look at every answer of the run run after the others. */
  readonly afterOthers?: boolean
  run(ctx: RuleContext): Promise<void>
}

export type Verdict = 'pass' | 'fail' | 'skip'

/** The outcome of one rule. */
export interface RuleResult {
  readonly id: string
  readonly title: string
  readonly link: string
  readonly verdict: Verdict
  /** Why it was skipped. */
  readonly reason?: string | undefined
  readonly failures: readonly Failure[]
  readonly requests: number
  readonly ms: number
}

/** Text of a body for a report: short, one line. */
export function show(answer: Answer): string {
  const body = answer.text.length > 300 ? `${answer.text.slice(0, 300)}…` : answer.text
  return `${answer.status}${body === '' ? '' : ` ${body}`}`
}

/** A failure about one answer. */
export function about(answer: Answer, message: string, expected: string, actual = show(answer)): Failure {
  return { message, request: answer.request, expected, actual }
}
