import { Facts } from './facts.js'
import type { KeyRef } from './keys.js'
import { BudgetExhausted, NoAnswer, type Prober } from './prober.js'
import { CONTRACT_URL, Skip, type Failure, type Rule, type RuleContext, type RuleResult } from './rule.js'

/** At most this many failures are kept per rule: enough to see the pattern, short enough to read. */
const MAX_FAILURES = 5

export interface RunRulesOptions {
  prober: Prober
  key: KeyRef | undefined
  planKeys: ReadonlyMap<string, KeyRef>
  /** Called as each rule ends, for a live report. */
  onResult?: (result: RuleResult) => void
}

/**
 * Runs `rules` one after another against the deployment. A rule that throws anything else than a
 * skip fails with the error's message, so one broken answer never stops the run.
 */
export async function runRules(rules: readonly Rule[], options: RunRulesOptions): Promise<RuleResult[]> {
  const { prober } = options
  const facts = new Facts(prober, options.key)
  const ordered = [...rules.filter((r) => !r.afterOthers), ...rules.filter((r) => r.afterOthers)]
  const results: RuleResult[] = []
  for (const rule of ordered) {
    const failures: Failure[] = []
    let extra = 0
    const ctx: RuleContext = {
      prober,
      facts,
      key: options.key,
      planKeys: options.planKeys,
      check(ok, failure) {
        if (!ok) {
          if (failures.length < MAX_FAILURES) failures.push(failure)
          else extra++
        }
        return ok
      },
      skip(reason) {
        throw new Skip(reason)
      },
      inconclusive(reason) {
        throw new Skip(`inconclusive: ${reason}`)
      },
    }
    const usedBefore = prober.used
    const started = performance.now()
    let verdict: RuleResult['verdict'] = 'pass'
    let reason: string | undefined
    try {
      await rule.run(ctx)
    } catch (error) {
      if (error instanceof Skip || error instanceof BudgetExhausted) {
        verdict = 'skip'
        reason = error.message
      } else if (error instanceof NoAnswer) {
        failures.push({ message: error.message })
      } else {
        failures.push({ message: `the rule could not finish: ${(error as Error).message}` })
      }
    }
    // A skip after a failure still fails: what was seen was wrong.
    if (failures.length > 0) verdict = 'fail'
    if (extra > 0) failures.push({ message: `and ${extra} more failures like these` })
    const result: RuleResult = {
      id: rule.id,
      title: rule.title,
      link: `${CONTRACT_URL}#${rule.anchor}`,
      verdict,
      reason: verdict === 'fail' ? undefined : reason,
      failures,
      requests: prober.used - usedBefore,
      ms: performance.now() - started,
    }
    results.push(result)
    options.onResult?.(result)
  }
  return results
}
