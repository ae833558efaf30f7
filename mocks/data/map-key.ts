/**
 * The key of a map indexed by several strings. JSON keeps the parts apart whatever characters they
 * hold: (`A/B`, `C`) and (`A`, `B/C`) never collide, nor do names containing a separator.
 */
export const mapKey = (...parts: readonly string[]): string => JSON.stringify(parts)
