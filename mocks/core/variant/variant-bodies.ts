import * as z from 'zod/mini'
import { SERVICE_VARIANTS } from './presets.js'
import { serviceVariantSchema } from './service-variant.js'

const PRESET_NAMES = Object.keys(SERVICE_VARIANTS) as [string, ...string[]]

/**
 * The body of `PUT /_mock/variant`: the fields of a ServiceVariant, or `{"preset": NAME}`, or both
 * (the preset, then the fields over it). A field left out is the reference's choice.
 */
export const variantPutSchema = z.strictObject({
  preset: z.optional(z.enum(PRESET_NAMES)),
  ...serviceVariantSchema.def.shape,
})
/** The body of `PUT /_mock/variant`. */
export type VariantPut = z.infer<typeof variantPutSchema>

/** `GET /_mock/variant` and the answer of `PUT`: every field as applied, and the preset it equals (null: none). */
export const variantStateSchema = z.object({
  variant: z.object({
    timestamps: serviceVariantSchema.def.shape.timestamps.def.innerType,
    missingKey: serviceVariantSchema.def.shape.missingKey.def.innerType,
    errorBodies: serviceVariantSchema.def.shape.errorBodies.def.innerType,
    rateLimitHeaders: serviceVariantSchema.def.shape.rateLimitHeaders.def.innerType,
    nullFields: serviceVariantSchema.def.shape.nullFields.def.innerType,
    extraFields: z.boolean(),
  }),
  preset: z.nullable(z.string()),
})
