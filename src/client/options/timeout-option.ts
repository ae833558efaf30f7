/** Checks a `timeout` option (client or request). */
export function checkTimeout(timeout: unknown, name: string): asserts timeout is number | false {
  if (timeout !== false && !(typeof timeout === 'number' && Number.isInteger(timeout) && timeout > 0 && timeout <= 2_147_483_647)) {
    throw new RangeError(`${name} must be a positive integer of milliseconds or false, got ${String(timeout)}`)
  }
}
