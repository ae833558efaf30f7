import { writeFileSync } from 'node:fs'
import { readApiKey } from '../api-key.js'
import { PROCESS_IO, type CliIo } from '../cli-io.js'
import { EXIT } from '../exit-codes.js'
import { UsageError } from '../usage-error.js'
import { CONFORMANCE_USAGE, parseConformanceArgs } from './args.js'
import { redactDeep, redactor, type KeyRef } from './keys.js'
import { Pacer } from './pacer.js'
import { NoAnswer, Prober } from './prober.js'
import { jsonOf, junitOf, summaryOf, textOfResult, textSummary, type Report } from './reporters/index.js'
import { RULES } from './rules/index.js'
import { runRules } from './run-rules.js'
import { plural } from '../../src/internal/plural.js'
import { CONTRACT_URL } from './rule.js'

/** Where the command writes, and the environment it reads its key from; tests pass their own. */
export interface ConformanceIo extends CliIo {
  env: NodeJS.ProcessEnv
}

const PROCESS_CONFORMANCE_IO: ConformanceIo = { ...PROCESS_IO, env: process.env }

/**
 * Runs `market-candles conformance ARGS`: every rule that can be observed from outside, against
 * `--base-url`. Resolves with 0 when no rule that ran failed (a difference from the reference fails
 * only with `--reference`), 1 when one failed; throws
 * {@link UsageError} for bad flags. Nothing it prints or writes holds a key.
 */
export async function runConformance(argv: readonly string[], io: ConformanceIo = PROCESS_CONFORMANCE_IO): Promise<number> {
  const args = parseConformanceArgs(argv, io.env)
  if (args.help) {
    io.out(CONFORMANCE_USAGE)
    return EXIT.ok
  }
  const mainKey = readApiKey(args.apiKeyFile, io.env)
  const key: KeyRef | undefined = mainKey === undefined ? undefined : { label: 'main', value: mainKey }
  const planKeys = new Map<string, KeyRef>()
  for (const { plan, file } of args.keyFiles) {
    const value = readApiKey(file, {})
    if (value === undefined) throw new UsageError(`--key-file ${plan}=${file} is empty`)
    planKeys.set(plan, { label: `plan ${plan}`, value })
  }
  const redact = redactor([...(key ? [key] : []), ...planKeys.values()])
  const print = (text: string) => io.out(redact(text))

  const rules = RULES.filter((r) => (args.only.length > 0 ? args.only.includes(r.id) : !r.optIn || args.include.includes(r.id)))
  const prober = new Prober({ baseUrl: args.baseUrl, pacer: new Pacer({ everyRequest: args.rate }), maxRequests: args.maxRequests, timeoutMs: args.timeoutMs })
  print(`conformance of ${args.baseUrl} to interface.md${args.reference ? ' and the reference\'s decisions (--reference)' : ''} (${CONTRACT_URL}): ${plural(rules.length, 'rule')}, at most ${plural(args.maxRequests, 'request')}, ${args.rate === undefined ? `${plural(prober.pacer.countedPerSecond, 'candle call')} a second` : `at most ${plural(args.rate, 'request')} in any second (--rate)`}`)
  print(`keys: ${key ? 'main' : 'none (candle rules are skipped)'}${planKeys.size > 0 ? `; plans ${[...planKeys.keys()].join(', ')}` : ''}`)
  print('')

  // One public call first: an unreachable service is one clear message, not a failure per rule.
  try {
    await prober.get('/v1/exchanges')
  } catch (error) {
    if (!(error instanceof NoAnswer)) throw error
    io.err(redact(`market-candles conformance: ${args.baseUrl} does not answer: ${error.message}`))
    return EXIT.failure
  }

  const startedAt = new Date().toISOString()
  const started = performance.now()
  const results = await runRules(rules, { prober, key, planKeys, reference: args.reference, onResult: (r) => print(textOfResult(redactDeep(r, redact))) })
  // Redacted before formatting: a key escaped by a format (XML, JSON) would slip past a later pass.
  const report: Report = redactDeep({ baseUrl: args.baseUrl, startedAt, ms: performance.now() - started, reference: args.reference, requests: { used: prober.used, budget: prober.budget, counted: prober.counted }, results }, redact)
  print('')
  print(textSummary(report))
  for (const [file, text] of [
    [args.junit, () => junitOf(report)],
    [args.json, () => jsonOf(report)],
  ] as const) {
    if (file === undefined) continue
    try {
      writeFileSync(file, text())
      print(`wrote ${file}`)
    } catch (error) {
      io.err(`market-candles conformance: cannot write ${file} (${(error as NodeJS.ErrnoException).code ?? (error as Error).message})`)
      return EXIT.failure
    }
  }
  return summaryOf(report).fail > 0 ? EXIT.failure : EXIT.ok
}
