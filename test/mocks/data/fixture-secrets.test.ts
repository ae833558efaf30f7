import { describe, expect, test } from 'vitest'
import { FixtureError, createMockService } from '../../../mocks/index.js'

describe('fixture keys are secrets: every bad input gets a clear error, and no key is ever quoted', () => {
  test('a key given twice is a FixtureError at once, naming only a hint', () => {
    const make = () => createMockService({ keys: [{ key: 'sk_live_twice_123', account: 'acct_free' }, { key: 'sk_live_twice_123', account: 'acct_pro' }] })
    expect(make).toThrow(FixtureError)
    expect(make).toThrow(/keys\[1\]: the key sk_l… appears twice/)
    expect(make).not.toThrow(/sk_live_twice_123/)
  })

  test('a bad key record is quoted with its key redacted', () => {
    const make = () => createMockService({ keys: [{ key: 'sk_live_VERY_SECRET', account: 42 as unknown as string }] })
    expect(make).toThrow(/keys\[0\]\.account: expected string, got number/)
    expect(make).not.toThrow(/VERY_SECRET/)
  })

  test('a short key has no hint at all, so a hint is never the whole key', async () => {
    const service = createMockService()
    await service.keys.add('abcd', 'acct_pro')
    expect(service.keys.list().at(-1)).toEqual({ hint: '…', account: 'acct_pro', revoked: false })
  })
})
