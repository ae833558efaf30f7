import { describe, expect, test } from 'vitest'
import { createMockService } from '../../../mocks/index.js'

describe('faults and clocks refuse what they cannot represent', () => {
  test('a fault status outside 200..599, or one without a body, is refused when added', () => {
    const service = createMockService()
    for (const status of [99, 600, 204, 304, 503.5]) expect(() => service.faults.add({ status })).toThrow(/Fault\.status/)
    expect(() => service.faults.add({ status: 200, body: [{ not: 'a candle' }] })).not.toThrow()
  })

  test('a clock beyond what a Date can hold is refused', () => {
    const service = createMockService()
    expect(() => service.clock.set(8.7e15)).toThrow(/not an instant a Date can hold/)
    expect(() => createMockService({ now: Number.NaN })).toThrow(TypeError)
  })
})
