/**
 * The `--out` value (or any text) with the password of a URL left out: `scheme://user:password@`
 * and a `password=` query parameter. Every message that names the output or repeats the command
 * goes through it.
 */
export function withoutPassword(text: string): string {
  return text
    .replace(/(\b[a-z][a-z0-9+.-]*:\/\/[^:/?#@\s]*):[^/?#\s]*@/gi, '$1@')
    .replace(/([?&])password=[^&#\s]*&?/gi, '$1')
    .replace(/[?&](?=\s|$)/g, '')
}
