import { readFileSync } from 'node:fs'
import { describe, expect, test } from 'vitest'
import { parseConformanceArgs } from '../../cli/conformance/index.js'

const FILE = new URL('../../examples/ci/conformance.github-actions.yml', import.meta.url)

describe('examples/ci: the CI job snippet', () => {
  test('runs market-candles conformance with flags the command accepts, keys from files, and keeps the JUnit report', () => {
    const text = readFileSync(FILE, 'utf8')
    const block = /run: >\n((?:\s{10}.*\n)+)/.exec(text)
    expect(block).not.toBeNull()
    const words = block![1]!.trim().split(/\s+/).map((w) => w.replace(/"/g, '').replace('$RUNNER_TEMP', '/tmp'))
    expect(words.slice(0, 4)).toEqual(['npx', '--yes', 'market-candles', 'conformance'])
    const args = parseConformanceArgs(words.slice(4))
    expect(args.baseUrl).toMatch(/^https:\/\//)
    expect(args.apiKeyFile).toBe('/tmp/key.txt')
    expect(args.keyFiles.map((k) => k.plan)).toEqual(['free', 'pro'])
    expect(args.junit).toBe('conformance.xml')
    // The report is uploaded even when the check fails.
    expect(text).toMatch(/if: always\(\)\n\s+uses: actions\/upload-artifact@v4\n(?:.*\n)*?\s+conformance\.xml/)
    expect(text).not.toMatch(/--api-key(?!-file)/)
  })
})
