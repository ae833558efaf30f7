import * as z from 'zod/mini'
import { openEnumMessage } from './known-values.js'

export { isKnown } from './known-values.js'

/**
 * A string the service documents with a closed list of values today but may extend tomorrow.
 * `(string & {})` keeps editor autocompletion for the known values while accepting any string,
 * so a new value from the service never fails validation (it reaches the caller unchanged).
 */
export type OpenEnum<Known extends string> = Known | (string & {})

/** A schema that accepts any string, typed as {@link OpenEnum} of `known`. */
export function openEnum<const Known extends readonly [string, ...string[]]>(known: Known) {
  return z.custom<OpenEnum<Known[number]>>((value) => typeof value === 'string', { error: openEnumMessage(known) })
}
