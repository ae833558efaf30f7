import type { ServiceVariant } from './service-variant.js'

/**
 * Named variants: the reference itself, one per decision a client meets (each changes one thing),
 * and `python-stack`, a deployment on a common Python web stack (FastAPI with pydantic v1):
 * `+00:00` timestamps, 403 for a missing key, pydantic-v1 422 bodies, `Retry-After` alone, null
 * fields left out.
 *
 * @example
 * for (const [name, variant] of Object.entries(SERVICE_VARIANTS)) {
 *   const service = createMockService({ variant })
 *   // ... run your client's tests against `name`
 * }
 */
export const SERVICE_VARIANTS = Object.freeze({
  reference: {},
  'timestamps-offset': { timestamps: '+00:00' },
  'timestamps-micro': { timestamps: '.000000+00:00' },
  'timestamps-millis': { timestamps: '.000Z' },
  'missing-key-403': { missingKey: 403 },
  'errors-pydantic-v1': { errorBodies: 'pydantic-v1' },
  'errors-detail-string': { errorBodies: 'detail-string' },
  'errors-text': { errorBodies: 'text' },
  'rate-limit-retry-after': { rateLimitHeaders: 'retry-after' },
  'rate-limit-none': { rateLimitHeaders: 'none' },
  'null-fields-omitted': { nullFields: 'omit' },
  'extra-fields': { extraFields: true },
  'python-stack': { timestamps: '+00:00', missingKey: 403, errorBodies: 'pydantic-v1', rateLimitHeaders: 'retry-after', nullFields: 'omit' },
} satisfies Record<string, ServiceVariant>) as Readonly<Record<ServiceVariantName, Readonly<ServiceVariant>>>

/** The name of a preset of {@link SERVICE_VARIANTS}. */
export type ServiceVariantName =
  | 'reference'
  | 'timestamps-offset'
  | 'timestamps-micro'
  | 'timestamps-millis'
  | 'missing-key-403'
  | 'errors-pydantic-v1'
  | 'errors-detail-string'
  | 'errors-text'
  | 'rate-limit-retry-after'
  | 'rate-limit-none'
  | 'null-fields-omitted'
  | 'extra-fields'
  | 'python-stack'
