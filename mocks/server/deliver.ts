import type { ServerResponse } from 'node:http'
import { SLOW_BODY_TICK_MS, slowBodyPiece } from '../core/faults/slow-body.js'
import type { Delivery } from '../core/message/types.js'

/**
 * The answers an injected fault keeps open (hanging or dribbling), so closing the server can end
 * them: a slow body is sent whole at once (an answer in flight completes), a hang is closed (it
 * has no answer to complete).
 */
export class OpenFaults {
  readonly #open = new Map<ServerResponse, () => void>()
  #closed = false
  readonly #closing = new AbortController()

  /** Aborted when the server closes: control requests that wait (the journal's wait form) end too. */
  get signal(): AbortSignal {
    return this.#closing.signal
  }

  /** Keeps `res` open until it ends; `finish` ends it at once. */
  add(res: ServerResponse, finish: () => void): void {
    // An answer the fault would keep open after the server began closing ends at once.
    if (this.#closed) finish()
    else this.#open.set(res, finish)
  }

  delete(res: ServerResponse): boolean {
    return this.#open.delete(res)
  }

  /** Ends every open answer, now and from now on. */
  close(): void {
    this.#closed = true
    this.#closing.abort()
    const finishing = [...this.#open.values()]
    this.#open.clear()
    for (const finish of finishing) finish()
  }
}


/**
 * Delivers a status line, headers and `body` the way an injected fault says: cut after some bytes,
 * slowly, or not at all (a reset, a closed connection, a hang until the client gives up).
 */
export function deliver(res: ServerResponse, delivery: Delivery, head: () => void, body: Buffer, open: OpenFaults, done: () => void): void {
  const socket = res.req.socket
  switch (delivery.kind) {
    case 'network_error':
      socket.destroy()
      return done()
    case 'reset':
      // A TCP RST, before any byte: the client sees ECONNRESET.
      socket.resetAndDestroy()
      return done()
    case 'hang':
      // Nothing is written; the connection stays open until the client gives up (or the server closes).
      keepOpen(res, open, done, () => socket.destroy())
      return
    case 'truncate': {
      head()
      res.write(body.subarray(0, Math.min(delivery.afterBytes, body.length)), () => {
        socket.destroy()
        done()
      })
      return
    }
    case 'slow_body': {
      head()
      const size = slowBodyPiece(body.length, delivery)
      let sent = 0
      let timer: NodeJS.Timeout | undefined
      keepOpen(res, open, done, () => {
        // The server is closing: the rest of the body goes now.
        clearTimeout(timer)
        if (res.destroyed || socket.destroyed) return
        res.end(body.subarray(sent), done)
      })
      const step = () => {
        if (res.destroyed || socket.destroyed) return
        const piece = body.subarray(sent, sent + size)
        sent += piece.length
        if (sent >= body.length) {
          open.delete(res)
          res.end(piece, done)
        } else {
          res.write(piece)
          timer = setTimeout(step, SLOW_BODY_TICK_MS)
        }
      }
      timer = setTimeout(step, SLOW_BODY_TICK_MS)
      return
    }
  }
}

function keepOpen(res: ServerResponse, open: OpenFaults, done: () => void, finish: () => void): void {
  res.req.socket.once('close', () => {
    if (open.delete(res)) done()
  })
  open.add(res, finish)
}
