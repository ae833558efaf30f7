import * as z from 'zod/mini'
import { openEnumMessage } from './known-values.js'

export { isKnown } from './known-values.js'

/**
 * A string the service documents with a closed list of values today but may extend tomorrow.
 * `(string & {})` keeps editor autocompletion for the known values while accepting any string,
 * so a new value from the service never fails validation (it reaches the caller unchanged).
 */
export type OpenEnum<Known extends string> = Known | (string & {})

/** The known values of each open-enum schema, for the OpenAPI document (internal). */
export const openEnumValues = new WeakMap<z.ZodMiniType, readonly string[]>()

/** A schema that accepts any string, typed as {@link OpenEnum} of `known`. */
export function openEnum<const Known extends readonly [string, ...string[]]>(known: Known) {
  const schema = z.custom<OpenEnum<Known[number]>>((value) => typeof value === 'string', { error: openEnumMessage(known) })
  openEnumValues.set(schema, known)
  return schema
}
