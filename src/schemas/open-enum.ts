import * as z from 'zod/mini'

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
  const schema = z.custom<OpenEnum<Known[number]>>((value) => typeof value === 'string', {
    error: `Expected a string (known values: ${known.join(', ')})`,
  })
  openEnumValues.set(schema, known)
  return schema
}

/** A type guard that tells a known value of an open enum from a value newer than this package. */
export function isKnown<const Known extends string>(
  known: readonly Known[],
  value: string | null | undefined,
): value is Known {
  return value != null && (known as readonly string[]).includes(value)
}
