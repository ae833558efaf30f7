import { firstAsk, learn, retryAsk, unlearnt, type PublishDelay } from '../src/follow/publish-delay.js'
const delay = Number(process.argv[2] ?? 1500), rtt = 20
let seed = 11
const error = () => ((seed = (seed * 16807) % 2147483647) / 2147483647) * 80 - 40
let d: PublishDelay = unlearnt()
for (let c = 0; c < 200; c++) {
  let x = firstAsk(d)
  const asks: number[] = []
  let missed: number | undefined
  for (;;) {
    asks.push(Math.round(x))
    if (x + error() + rtt / 2 >= delay) { d = learn(d, x + rtt, missed, rtt); break }
    missed = x
    x = retryAsk(d, x)
  }
  if (asks.length > 1 || c < 5) console.log(c, asks.join(' '), Math.round(d.lo), Math.round(d.hi), d.clean, d.probeAfter)
}
