/*
 * The consumer test holds the docs' curl blocks to the answers their comments document
 * (test/support/documented-answers.ts): the check itself, on blocks written here.
 */
import { describe, expect, test } from 'vitest'
import { answerMismatches, documentedAnswers } from './support/documented-answers.js'

const BLOCK = `# In another terminal: npx market-candles serve --port 4010
curl 'http://127.0.0.1:4010/_mock/usage'   # {"acct_free":0,...,"acct_enterprise":0}
curl -X POST 'http://127.0.0.1:4010/_mock/faults' \\
  -d '{"status": 503}'   # 201 {"id":"fault-1"}
# An outage: 200 {"candles": 7}
curl -X DELETE 'http://127.0.0.1:4010/_mock/data/candles?from=a&to=b'
curl 'http://127.0.0.1:4010/_mock/clock'   # the clock, no answer documented`
const answered = (...answers: [string, number][]) => answers.map(([body, status]) => `${body}\n<<${status}>>\n`).join('')

describe('a documented curl answer is the answer the command gets', () => {
  test('the comment at the end of the command, or the line above it: a status, a body (... for any text), or both', () => {
    expect(documentedAnswers(BLOCK).map(({ status, body }) => ({ status, body }))).toEqual([
      { status: undefined, body: '{"acct_free":0,...,"acct_enterprise":0}' },
      { status: '201', body: '{"id":"fault-1"}' },
      { status: '200', body: '{"candles": 7}' },
      { status: undefined, body: undefined },
    ])
    // A command piped on hands its answer to the pipe: not one of the block's answers.
    expect(documentedAnswers("curl -s -i 'http://x/v1/exchanges' | head -1\ncurl 'http://x/_mock/reset'   # 204").map((d) => d.status)).toEqual(['204'])
  })

  test('answers as documented pass; another count, another status or a missing answer is named', () => {
    const good = answered(['{"acct_free":0,"acct_pro":1,"acct_enterprise":0}', 200], ['{"id":"fault-1"}', 201], ['{"candles":7}', 200], ['{"now":"x"}', 200])
    expect(answerMismatches(BLOCK, good)).toEqual([])
    const zero = answered(['{"acct_free":0,"acct_pro":1,"acct_enterprise":0}', 200], ['{"id":"fault-1"}', 201], ['{"candles":0}', 200], ['{"now":"x"}', 200])
    expect(answerMismatches(BLOCK, zero)).toEqual([expect.stringContaining('documented {"candles": 7}\n  answered   {"candles":0}')])
    const status = answered(['{"acct_free":0,"acct_pro":1,"acct_enterprise":0}', 200], ['{"detail":"x"}', 422], ['{"candles":7}', 200], ['{}', 200])
    expect(answerMismatches(BLOCK, status)).toEqual([expect.stringContaining('documented 201, answered 422'), expect.stringContaining('documented {"id":"fault-1"}')])
    expect(answerMismatches(BLOCK, good.slice(0, good.lastIndexOf('{"now"')))).toEqual(['4 curl commands, 3 answers'])
  })
})
