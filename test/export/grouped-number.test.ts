import { describe, expect, test } from 'vitest'
import { groupedNumber } from '../../cli/export/flags/grouped-number.js'

describe('groupedNumber', () => {
  test("writes whole numbers as toLocaleString('en-US') does", () => {
    const samples = [0, 1, 12, 123, 999, 1000, 1001, 12_345, 100_000, 999_999, 1_000_000, 1_234_567_890, -1, -1000, -123_456, Number.MAX_SAFE_INTEGER]
    for (let i = 0; i < 200; i++) samples.push(Math.floor(Math.random() * 10 ** (i % 16)))
    for (const n of samples) expect(groupedNumber(n), String(n)).toBe(n.toLocaleString('en-US'))
  })
})
