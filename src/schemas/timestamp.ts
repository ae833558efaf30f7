import * as z from 'zod/mini'

/** An ISO 8601 UTC datetime as the service writes it, e.g. `2024-05-01T09:01:00Z`. */
export const timestampSchema = z.iso.datetime()

/** A calendar date, `YYYY-MM-DD`. */
export const dateSchema = z.iso.date()
