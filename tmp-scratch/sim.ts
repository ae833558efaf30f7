import { firstAsk, learn, retryAsk, unlearnt, type PublishDelay } from '../src/follow/publish-delay.js'
const delay = Number(process.argv[2] ?? 1500), rtt = Number(process.argv[3] ?? 10), extra = Number(process.argv[4] ?? 0)
let d: PublishDelay = unlearnt()
for (let c = 0; c < 10; c++) {
  let x = firstAsk(d) + extra
  const asks: number[] = []
  let missed: number | undefined
  for (;;) {
    asks.push(Math.round(x))
    if (x + rtt / 2 >= delay) { d = learn(d, x + rtt + extra, missed === undefined ? undefined : missed - extra, rtt + extra); break }
    missed = x
    x = retryAsk(d, x - extra) + extra
  }
  console.log(c, asks.join(' '), JSON.stringify(d))
}
