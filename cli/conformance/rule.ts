import type { Facts } from './facts.js'
import type { KeyRef } from './keys.js'
import type { Answer, Prober } from './prober.js'
import type { Source } from './sources.js'

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

/** A failed expectation with the source of the check: a failure (interface.md) or a difference (a decision). */
export interface Finding extends Failure {
  /** The sentence of interface.md or the decision the check comes from; absent for a rule that could not finish. */
  readonly source?: Source | undefined
}

/** What a rule's `run` is given. */
export interface RuleContext {
  readonly prober: Prober
  readonly facts: Facts
  /** The key of `--api-key-file` (or MARKET_CANDLES_API_KEY), if any. */
  readonly key: KeyRef | undefined
  /** The keys of `--key-file PLAN=FILE`, by plan. */
  readonly planKeys: ReadonlyMap<string, KeyRef>
  /**
   * Records a finding unless `ok`: a failure when `source` is a statement of interface.md, a
   * difference from the reference when it is a decision. The rule goes on, so one run reports every
   * broken case. `source` must be one of the rule's `sources`.
   */
  check(source: Source, ok: boolean, failure: Failure): boolean
  /** Records what the rule saw, for the report (a line; shown even when the rule passes). */
  evidence(line: string): void
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
  /** Where each of its checks comes from: statements of interface.md, decisions of decisions.md. */
  readonly sources: readonly Source[]
  /** Run only when asked for with `--include ID` (the rate-limit burst causes 429s). */
  readonly optIn?: boolean
  /** Rules that look at every answer of the run run after the others. */
  readonly afterOthers?: boolean
  run(ctx: RuleContext): Promise<void>
}

/**
 * `fail`: a check of interface.md did not hold (or, with `--reference`, a check of a decision);
 * `differ`: only checks of decisions did not hold, the deployment fills a gap another way.
 */
export type Verdict = 'pass' | 'fail' | 'differ' | 'skip'

/** The outcome of one rule. */
export interface RuleResult {
  readonly id: string
  readonly title: string
  readonly link: string
  readonly verdict: Verdict
  /** Why it was skipped. */
  readonly reason?: string | undefined
  /** Its sources, as declared by the rule. */
  readonly sources: readonly Source[]
  /** Checks of interface.md that did not hold. */
  readonly failures: readonly Finding[]
  /** Checks of a decision that did not hold: differences from the reference. */
  readonly differences: readonly Finding[]
  /** What the rule saw (lines), for the rules that record it. */
  readonly evidence: readonly string[]
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
