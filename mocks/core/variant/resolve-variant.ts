import { SERVICE_VARIANTS, type ServiceVariantName } from './presets.js'
import { REFERENCE_VARIANT, serviceVariantSchema, type ResolvedVariant, type ServiceVariant } from './service-variant.js'

/** A variant as the options take it: a preset's name or the fields themselves. */
export type ServiceVariantInput = ServiceVariantName | ServiceVariant

/**
 * The variant with every field given (the reference's choice where `input` leaves one out).
 * Throws a TypeError naming the unknown preset or the bad field.
 */
export function resolveVariant(input: ServiceVariantInput | undefined): ResolvedVariant {
  if (input === undefined) return REFERENCE_VARIANT
  if (typeof input === 'string') {
    if (!Object.hasOwn(SERVICE_VARIANTS, input)) throw new TypeError(`Unknown variant preset ${JSON.stringify(input)} (known: ${Object.keys(SERVICE_VARIANTS).join(', ')})`)
    return { ...REFERENCE_VARIANT, ...SERVICE_VARIANTS[input] }
  }
  const parsed = serviceVariantSchema.safeParse(input)
  if (!parsed.success) {
    const issue = parsed.error.issues[0]!
    const where = issue.path.length > 0 ? issue.path.join('.') : 'variant'
    throw new TypeError(`Invalid variant: ${where}: ${issue.message}`)
  }
  return { ...REFERENCE_VARIANT, ...stripUndefined(parsed.data) }
}

/** The fields of `resolved` that differ from the reference: what `GET /_mock/variant` reports as `changes`. */
export function variantChanges(resolved: ResolvedVariant): ServiceVariant {
  const changes: Record<string, unknown> = {}
  for (const key of Object.keys(REFERENCE_VARIANT) as (keyof ResolvedVariant)[]) {
    if (resolved[key] !== REFERENCE_VARIANT[key]) changes[key] = resolved[key]
  }
  return changes as ServiceVariant
}

/** True when the variant is the reference itself: answers pass unchanged. */
export const isReference = (v: ResolvedVariant): boolean =>
  v === REFERENCE_VARIANT || (Object.keys(REFERENCE_VARIANT) as (keyof ResolvedVariant)[]).every((k) => v[k] === REFERENCE_VARIANT[k])

function stripUndefined(v: ServiceVariant): ServiceVariant {
  return Object.fromEntries(Object.entries(v).filter(([, value]) => value !== undefined)) as ServiceVariant
}
