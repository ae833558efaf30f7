import { SLOW_BODY_TICK_MS, slowBodyPiece } from '../core/faults/slow-body.js'
import type { Delivery } from '../core/message/types.js'


/** The kinds MSW handlers deliver: no socket, so no TCP reset. */
export const MSW_FAULT_KINDS = ['status', 'network_error', 'truncate', 'slow_body', 'hang', 'latency'] as const
/** The kinds a browser's Service Worker delivers: whole answers only, so no cut, slow or hanging body either. */
export const BROWSER_FAULT_KINDS = ['status', 'network_error', 'latency'] as const

/**
 * The body of an answer a fault cuts or slows, as a stream: `afterBytes` bytes then an error (the
 * reader sees a network failure mid-body), or every byte in timed pieces.
 */
export function faultBody(bytes: Uint8Array, delivery: Extract<Delivery, { kind: 'truncate' | 'slow_body' }>, signal: AbortSignal): ReadableStream<Uint8Array> {
  if (delivery.kind === 'truncate') {
    return new ReadableStream({
      start(controller) {
        if (delivery.afterBytes > 0) controller.enqueue(bytes.slice(0, delivery.afterBytes))
        controller.error(new TypeError(`terminated: the mock cut the body after ${delivery.afterBytes} bytes (injected truncate fault)`))
      },
    })
  }
  const size = slowBodyPiece(bytes.length, delivery)
  let sent = 0
  return new ReadableStream({
    async pull(controller) {
      await new Promise((resolve) => setTimeout(resolve, SLOW_BODY_TICK_MS))
      // An answer built in this process is not tied to the request: a client that gave up stops it here.
      if (signal.aborted) return controller.error(signal.reason)
      controller.enqueue(bytes.slice(sent, sent + size))
      sent += size
      if (sent >= bytes.length) controller.close()
    },
  })
}

/** Resolves when `signal` aborts: a hanging answer ends only when the client gives up. */
export function untilAborted(signal: AbortSignal): Promise<void> {
  return new Promise((resolve) => (signal.aborted ? resolve() : signal.addEventListener('abort', () => resolve(), { once: true })))
}
