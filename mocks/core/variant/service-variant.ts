import * as z from 'zod/mini'

/**
 * How a deployment fills the gaps interface.md leaves open. Every field is optional; a field left out
 * keeps the reference's choice (decisions.md D1-D12), so `{}` is the reference itself. Each field is one
 * decision a client meets when it talks to a deployment built by someone else (D13).
 *
 * @example
 * const service = createMockService({ variant: { timestamps: '+00:00', missingKey: 403 } })
 * // or a preset: createMockService({ variant: 'python-stack' })
 */
export interface ServiceVariant {
  /**
   * How every timestamp field (`close_ts`, `first_close_ts`, `last_close_ts`) is written:
   * `'Z'` → `2025-12-30T00:01:00Z` (D5); `'+00:00'` → `2025-12-30T00:01:00+00:00`;
   * `'.000000+00:00'` → `2025-12-30T00:01:00.000000+00:00`; `'.000Z'` → `2025-12-30T00:01:00.000Z`.
   * @default 'Z'
   */
  timestamps?: 'Z' | '+00:00' | '.000000+00:00' | '.000Z'
  /** The status of a candle request without a key, or with an empty one (D2 says 401). @default 401 */
  missingKey?: 401 | 403
  /**
   * Error bodies: `'pydantic-v2'` (D1: `{"detail":"..."}`, a 422's `detail` a list of
   * `{type, loc, msg, input, ctx?}`), `'pydantic-v1'` (a 422's issues as `{loc, msg, type}`),
   * `'detail-string'` (every error `{"detail":"..."}`, a 422 too), `'text'` (`text/plain`, not JSON).
   * @default 'pydantic-v2'
   */
  errorBodies?: 'pydantic-v2' | 'pydantic-v1' | 'detail-string' | 'text'
  /**
   * Rate-limit headers: `'all'` (D7: `Retry-After` and `RateLimit-*` on a 429, `RateLimit-*` on each
   * 200 of a candle endpoint), `'retry-after'` (a 429 with `Retry-After` only, no `RateLimit-*`
   * anywhere), `'none'` (no rate-limit header at all).
   * @default 'all'
   */
  rateLimitHeaders?: 'all' | 'retry-after' | 'none'
  /** `'null'` writes a field without a value as `null`; `'omit'` leaves it out (`flag`, `closing_date`). @default 'null' */
  nullFields?: 'null' | 'omit'
  /** Adds fields interface.md does not list to every record (`id`; `ingested_at` on candles). @default false */
  extraFields?: boolean
}

/** A variant with every field given: what a service applies. */
export type ResolvedVariant = Required<ServiceVariant>

/** The reference's own choices (D1-D12): the default of every field. */
export const REFERENCE_VARIANT: Readonly<ResolvedVariant> = Object.freeze({
  timestamps: 'Z',
  missingKey: 401,
  errorBodies: 'pydantic-v2',
  rateLimitHeaders: 'all',
  nullFields: 'null',
  extraFields: false,
})

/**
 * The schema of a {@link ServiceVariant}: the body of `PUT /_mock/variant` (besides `{"preset": NAME}`).
 * Unknown fields are refused, never ignored.
 *
 * @example
 * serviceVariantSchema.parse({ timestamps: '+00:00', errorBodies: 'pydantic-v1' })
 */
export const serviceVariantSchema = z.strictObject({
  timestamps: z.optional(z.enum(['Z', '+00:00', '.000000+00:00', '.000Z'])),
  missingKey: z.optional(z.union([z.literal(401), z.literal(403)])),
  errorBodies: z.optional(z.enum(['pydantic-v2', 'pydantic-v1', 'detail-string', 'text'])),
  rateLimitHeaders: z.optional(z.enum(['all', 'retry-after', 'none'])),
  nullFields: z.optional(z.enum(['null', 'omit'])),
  extraFields: z.optional(z.boolean()),
})

// The schema and the interface say the same thing (the interface carries the docs).
type Same<A, B> = [A] extends [B] ? ([B] extends [A] ? true : false) : false
const schemaMatches: Same<z.output<typeof serviceVariantSchema>, ServiceVariant> = true
void schemaMatches
