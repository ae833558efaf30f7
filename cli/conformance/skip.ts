/** Thrown by `RuleContext.skip` (rule.ts): the rule ends as a skip, not a failure. */
export class Skip extends Error {
  override name = 'Skip'
}
