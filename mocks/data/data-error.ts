import type { DataIssue } from './arranged-data.js'

/** How many issues the message lists; `issues` holds them all. */
const LISTED = 20

/**
 * Bad input to arranging data (`service.data`, `service.keys.put`, `service.plans.put`): nothing
 * changed. `issues` names every bad row by its index and the rule it breaks; the message lists the
 * first 20. Over HTTP the control plane answers it as a 422.
 *
 * @example
 * try {
 *   service.data.putCandles([{ ...candle, low: 105, high: 104 }])
 * } catch (error) {
 *   if (error instanceof DataError) error.issues // [{ index: 0, field: 'low', message: 'low 105 is above high 104' }]
 * }
 */
export class DataError extends Error {
  override name = 'DataError'
  /** Every bad row: its index in the batch (0 for a single record), the field, the rule. */
  readonly issues: DataIssue[]

  /**
   * @param operation what was refused, e.g. `putCandles`
   * @param issues every bad row
   * @param record how a row is named in the message: `candles` (a batch: `candles[3].low`) or a single record (`spec.from`)
   */
  constructor(operation: string, issues: DataIssue[], record = 'candles') {
    const batch = record === 'candles'
    const rows = new Set(issues.map((i) => i.index)).size
    const lines = issues.slice(0, LISTED).map((i) => `  ${record}${batch ? `[${i.index}]` : ''}${i.field === undefined ? '' : `.${i.field}`}: ${i.message}`)
    if (issues.length > LISTED) lines.push(`  and ${issues.length - LISTED} more`)
    const what = batch ? `${rows} bad row${rows === 1 ? '' : 's'}` : `a bad ${record}`
    super(`${operation} refused ${what}, nothing changed:\n${lines.join('\n')}`)
    this.issues = issues
  }
}
