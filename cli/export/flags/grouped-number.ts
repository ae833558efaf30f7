/**
 * A whole number with commas between thousands, as `toLocaleString('en-US')` writes it. That call's
 * first use loads ICU's number formatting, 25 ms of a short export's 300 ms of CPU (2026-11-27).
 */
export function groupedNumber(n: number): string {
  if (!Number.isSafeInteger(n)) return String(n)
  const digits = String(Math.abs(n))
  let out = digits.slice(0, digits.length % 3 || 3)
  for (let i = out.length; i < digits.length; i += 3) out += `,${digits.slice(i, i + 3)}`
  return n < 0 ? `-${out}` : out
}
