import type { ApiKey } from '../../data/accounts.js'
import { sha256 } from './key-digest.js'

interface StoredKey {
  readonly digest: Uint8Array
  account: string
  revoked: boolean
  /** First characters only, so listings never show a whole key. */
  readonly hint: string
}

/** A key as listed: never the key itself. */
export interface KeyInfo {
  hint: string
  account: string
  revoked: boolean
}

// Visits every stored key and every byte whatever matches, so timing says nothing about the key.
function constantTimeFind(keys: readonly StoredKey[], digest: Uint8Array): StoredKey | undefined {
  let found: StoredKey | undefined
  for (const key of keys) {
    let diff = 0
    for (let i = 0; i < digest.length; i++) diff |= key.digest[i]! ^ digest[i]!
    if (diff === 0) found = key
  }
  return found
}

/** The first four characters of a key, and none of a short one, so a hint never is the whole key. */
export const hintOf = (key: string): string => (key.length <= 8 ? '…' : `${key.slice(0, 4)}…`)

/** The accounts' API keys, stored as SHA-256 digests only (contract: authentication). */
export class KeyRing {
  #keys: StoredKey[] = []

  static async #stored(into: StoredKey[], key: string, account: string, revoked: boolean): Promise<StoredKey> {
    if (key === '') throw new TypeError('An API key cannot be empty')
    const digest = await sha256(key)
    if (constantTimeFind(into, digest)) throw new TypeError(`That API key (${hintOf(key)}) exists already`)
    return { digest, account, revoked, hint: hintOf(key) }
  }

  /** Adds a key to an account. */
  async add(key: string, account: string, revoked = false): Promise<void> {
    this.#keys.push(await KeyRing.#stored(this.#keys, key, account, revoked))
  }

  /** Adds a key, or points a key already present to `account` (live again if it was revoked). */
  async put(key: string, account: string): Promise<void> {
    if (key === '') throw new TypeError('An API key cannot be empty')
    const found = constantTimeFind(this.#keys, await sha256(key))
    if (!found) return this.add(key, account)
    found.account = account
    found.revoked = false
  }

  /** Revokes a key: it then answers 401 "Invalid API key". Returns false when the key is unknown. */
  async revoke(key: string): Promise<boolean> {
    const found = constantTimeFind(this.#keys, await sha256(key))
    if (found) found.revoked = true
    return found !== undefined
  }

  /** The account of a live key, or undefined for an unknown or revoked one. */
  async accountOf(key: string): Promise<string | undefined> {
    const found = constantTimeFind(this.#keys, await sha256(key))
    return found && !found.revoked ? found.account : undefined
  }

  /** Every key, by hint. */
  list(): KeyInfo[] {
    return this.#keys.map(({ hint, account, revoked }) => ({ hint, account, revoked }))
  }

  /** Replaces every key with `keys`. */
  async load(keys: readonly ApiKey[]): Promise<void> {
    // Built apart and swapped in at once, so overlapping loads (a reset during start-up) never mix.
    const next: StoredKey[] = []
    for (const k of keys) next.push(await KeyRing.#stored(next, k.key, k.account, k.revoked ?? false))
    this.#keys = next
  }
}
