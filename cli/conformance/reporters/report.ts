import type { RuleResult } from '../rule.js'

/** Everything a reporter writes about one run. */
export interface Report {
  baseUrl: string
  startedAt: string
  ms: number
  /** `--reference`: differences from the reference's decisions failed their rules. */
  reference: boolean
  /** Requests sent, the budget, and how many the service counted (candle 200s: the account's usage). */
  requests: { used: number; budget: number; counted: number }
  results: readonly RuleResult[]
}

/** Counts by verdict. */
export function summaryOf(report: Report): { pass: number; fail: number; differ: number; skip: number } {
  const count = (v: string) => report.results.filter((r) => r.verdict === v).length
  return { pass: count('pass'), fail: count('fail'), differ: count('differ'), skip: count('skip') }
}
