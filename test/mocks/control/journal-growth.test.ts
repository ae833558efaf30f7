import { describe, expect, test } from 'vitest'
import { RequestJournal } from '../../../mocks/core/journal/journal.js'

const record = (journal: RequestJournal, i: number) =>
  journal.record({ method: 'GET', url: `/v1/assets?i=${i}`, account: null, status: 200, reason: null, fault: null, wall: i, service: i })

describe('the request journal keeps the last `size` requests whatever its columns hold so far', () => {
  test.each([1, 3, 16, 17, 100, 1000])('size %i: entries survive the columns growing, and the ring drops the oldest', (size) => {
    const journal = new RequestJournal(size)
    const n = size * 2 + 5
    for (let i = 0; i < n; i++) {
      record(journal, i)
      if (i === n - 1 || i === 15 || i === 16 || i === size - 1 || i === size) {
        const listed = journal.list()
        const expected = Array.from({ length: Math.min(i + 1, size) }, (_, k) => i + 1 - Math.min(i + 1, size) + k)
        expect(listed.map((e) => e.query.i)).toEqual(expected.map(String))
        expect(listed.map((e) => e.seq)).toEqual(expected.map((x) => x + 1))
      }
    }
  })

  test('after clear() the journal records again from where it was, growing as needed', () => {
    const journal = new RequestJournal(1000)
    for (let i = 0; i < 20; i++) record(journal, i)
    journal.clear()
    for (let i = 20; i < 60; i++) record(journal, i)
    expect(journal.list().map((e) => e.query.i)).toEqual(Array.from({ length: 40 }, (_, k) => String(20 + k)))
  })
})
