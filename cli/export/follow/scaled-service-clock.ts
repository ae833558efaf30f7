import { DateHeaderClock } from '../../../src/follow/service-clock.js'

/**
 * The clock of a service that runs `rate` times wall speed (a reference service started with
 * `serve --clock-rate N`), learnt from the `Date` header of its answers. Such a clock reads
 * `wall × rate + offset` with a constant offset, so the SDK's `Date` estimate (built for a clock at
 * wall speed) applies unchanged to a local clock scaled by `rate`. The SDK's own estimate assumes
 * rate 1: without this, a follow of a fast clock would poll once per wall interval.
 */
export function scaledServiceClock(rate: number, wall: () => number = Date.now): { now(): number; fetch: typeof fetch } {
  const origin = wall()
  // Read as the system time until the first answer, so nothing waits on an absurd date.
  const local = () => origin + (wall() - origin) * rate
  const clock = new DateHeaderClock(local)
  return {
    now: () => clock.now(),
    fetch: async (input, init) => {
      const sent = local()
      const response = await fetch(input, init)
      clock.observe(response.headers.get('date'), sent, local())
      return response
    },
  }
}
