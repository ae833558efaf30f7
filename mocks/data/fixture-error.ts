import type * as z from 'zod/mini'
import { describeIssue } from '../../src/contract/index.js'

/** A fixture record that breaks a rule; the message names the record and the rule. */
export class FixtureError extends Error {
  override name = 'FixtureError'
}

/** Validates every record of a fixture array, naming the first bad one, e.g. `candles[3].low`. */
export function checkRecords<S extends z.ZodMiniType>(
  name: string,
  records: unknown,
  schema: S,
  /** Hides secrets of a record before it is quoted in a message. */
  redact: (record: unknown) => unknown = (record) => record,
): Array<z.output<S>> {
  if (!Array.isArray(records)) throw new FixtureError(`${name}: expected an array, got ${typeof records}`)
  return records.map((record, i) => {
    const result = schema.safeParse(record, { reportInput: true })
    if (result.success) return result.data
    throw new FixtureError(`${describeIssue(result.error.issues[0]!, `${name}[${i}]`)} (record: ${JSON.stringify(redact(record))})`)
  })
}
