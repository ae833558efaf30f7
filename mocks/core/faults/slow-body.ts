import type { Delivery } from '../message/types.js'

/** A slow body goes out in pieces at this pace, so a client's timer sees it trickle. */
export const SLOW_BODY_TICK_MS = 50

/** The size of each piece of a slow body of `length` bytes, one piece every {@link SLOW_BODY_TICK_MS}. */
export function slowBodyPiece(length: number, delivery: Extract<Delivery, { kind: 'slow_body' }>): number {
  const ticks =
    delivery.durationMs !== undefined
      ? Math.max(1, Math.ceil(delivery.durationMs / SLOW_BODY_TICK_MS))
      : Math.ceil(length / Math.max(1, (delivery.bytesPerSecond! * SLOW_BODY_TICK_MS) / 1000))
  return Math.max(1, Math.ceil(length / ticks))
}
