/**
 * The base of every error this package throws. Messages, properties, `toJSON()` and `cause`
 * chains never hold the API key.
 */
export class MarketCandlesError extends Error {
  override name = 'MarketCandlesError'

  /** A plain object for logs: name, message and the error's own fields, never the request headers. */
  toJSON(): Record<string, unknown> {
    const out: Record<string, unknown> = { name: this.name, message: this.message }
    for (const [key, value] of Object.entries(this)) if (key !== 'cause') out[key] = value
    return out
  }
}
