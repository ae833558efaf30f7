export { runConformance, type ConformanceIo } from './run-conformance.js'
export { CONFORMANCE_USAGE, parseConformanceArgs, type ConformanceArgs } from './args.js'
export { RULES } from './rules/index.js'
export type { Rule, RuleResult, Failure } from './rule.js'
