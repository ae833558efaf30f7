// The conformance rules, one object each, by the part of the contract they check: access/ (keys,
// plans, what is counted, the rate limit), requests/ (how a request is read and refused), answers/
// (the catalog, candles and their pages, the OpenAPI document); shared/ holds what several use.
export { RULES } from './all-rules.js'
export { KNOWN_PLANS } from './access/plans.js'
