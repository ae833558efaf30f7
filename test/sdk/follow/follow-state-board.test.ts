import { describe, expect, test } from 'vitest'
import { StateBoard } from '../../../src/follow/follow-state.js'
import type { FollowState } from '../../../src/follow/follow-types.js'
import { SeriesPosition } from '../../../src/follow/series-position.js'

const position = (base: string) =>
  new SeriesPosition({ version: 1, kind: 'follow', endpoint: 'exchange_ohlcv', query: { exchange: 'bitstamp', interval: '1m', base, quote: 'USD' } })
const boom = new Error('503')

describe("a follow's state: its own status from its series', told on each change and each failed try", () => {
  test('retrying wins over catching-up, which wins over live; ended once iteration is over, with its error', () => {
    const told: FollowState[] = []
    const board = new StateBoard([position('BTC'), position('ETH')], 0, undefined, (s) => told.push(s))
    const [btc, eth] = board.series as [typeof board.series[0], typeof board.series[0]]
    board.begin(0)
    board.set(btc, 'live', 10)
    expect(board.state(10).status).toBe('catching-up')
    board.set(eth, 'live', 20)
    board.set(eth, 'retrying', 30, boom)
    board.set(eth, 'retrying', 90, boom)
    expect(board.seriesState(eth, 100)).toMatchObject({ status: 'retrying', since: 30, outageMs: 70, attempts: 2, lastError: boom })
    expect(board.seriesState(btc, 100)).toMatchObject({ status: 'live', since: 10 })
    board.set(eth, 'live', 120)
    expect(board.seriesState(eth, 130)).toEqual(expect.not.objectContaining({ lastError: expect.anything() }))
    board.end(200, boom)
    expect(told.map((s) => [s.status, s.since, s.attempts])).toEqual([
      ['live', 20, undefined],
      ['retrying', 30, 1],
      ['retrying', 30, 2],
      ['live', 120, undefined],
      ['ended', 200, undefined],
    ])
    expect(told.at(-1)!.lastError).toBe(boom)
  })

  test('a page at the same status tells nothing: the callback is told changes only', () => {
    let told = 0
    const board = new StateBoard([position('BTC')], 0, undefined, () => told++)
    const [btc] = board.series
    board.begin(0)
    for (let t = 1; t <= 100; t++) board.set(btc!, 'live', t)
    expect(told).toBe(1)
  })

  test('the settle of a series is the fixed settleMs when given, else what it has learnt', () => {
    expect(new StateBoard([position('BTC')], 0, 2000).seriesState(new StateBoard([position('BTC')], 0, 2000).series[0]!, 0).settleMs).toBe(2000)
    const learning = new StateBoard([position('BTC')], 0, undefined)
    expect(learning.seriesState(learning.series[0]!, 0).settleMs).toBe(100)
  })
})
