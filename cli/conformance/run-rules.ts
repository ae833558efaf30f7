import { Facts } from './facts.js'
import type { KeyRef } from './keys.js'
import { BudgetExhausted, NoAnswer, type Prober } from './prober.js'
import { CONTRACT_URL, Skip, type Finding, type Rule, type RuleContext, type RuleResult } from './rule.js'

/** At most this many failures (and differences) are kept per rule: enough to see the pattern, short enough to read. */
const MAX_FAILURES = 5
/** At most this many evidence lines per rule. */
const MAX_EVIDENCE = 12

/** Keeps up to MAX_FAILURES findings and counts the rest. */
class Findings {
  readonly kept: Finding[] = []
  extra = 0
  add(finding: Finding): void {
    if (this.kept.length < MAX_FAILURES) this.kept.push(finding)
    else this.extra++
  }
  done(what: string): Finding[] {
    return this.extra > 0 ? [...this.kept, { message: `and ${this.extra} more ${what} like these` }] : this.kept
  }
}

export interface RunRulesOptions {
  prober: Prober
  key: KeyRef | undefined
  planKeys: ReadonlyMap<string, KeyRef>
  /** `--reference`: a difference from the reference's decisions fails the rule too. */
  reference?: boolean
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
    const failures = new Findings()
    const differences = new Findings()
    const evidence: string[] = []
    const ctx: RuleContext = {
      prober,
      facts,
      key: options.key,
      planKeys: options.planKeys,
      check(source, ok, failure) {
        // A check must name one of the rule's declared sources: the report lists them per rule.
        if (!rule.sources.includes(source)) throw new Error(`rule ${rule.id} checks ${source.ref}, which it does not declare among its sources`)
        if (!ok) (source.kind === 'interface' ? failures : differences).add({ ...failure, source })
        return ok
      },
      evidence(line) {
        if (evidence.length < MAX_EVIDENCE) evidence.push(line)
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
        failures.add({ message: error.message })
      } else {
        failures.add({ message: `the rule could not finish: ${(error as Error).message}` })
      }
    }
    // A skip after a failure still fails: what was seen was wrong. A difference fails only with --reference.
    if (failures.kept.length > 0 || (options.reference && differences.kept.length > 0)) verdict = 'fail'
    else if (differences.kept.length > 0) verdict = 'differ'
    const result: RuleResult = {
      id: rule.id,
      title: rule.title,
      link: `${CONTRACT_URL}#${rule.anchor}`,
      verdict,
      reason: verdict === 'skip' || verdict === 'pass' ? reason : undefined,
      sources: rule.sources,
      failures: failures.done('failures'),
      differences: differences.done('differences'),
      evidence,
      requests: prober.used - usedBefore,
      ms: performance.now() - started,
    }
    results.push(result)
    options.onResult?.(result)
  }
  return results
}
