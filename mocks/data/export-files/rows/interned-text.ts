/**
 * The last text of one column and a copy of it that is its own string: V8 keeps a slice of a longer
 * string (13 characters and up) as a view of it, so a field cut from a line would keep the whole
 * chunk of the file read alive. Repeated values (a series' fields, the source) then share one string.
 */
export class InternedText {
  private last: string | undefined
  private copy = ''

  of(text: string): string {
    if (text === this.last) return this.copy
    this.last = text
    // A string built from its characters owns them.
    this.copy = text.length < 13 ? text : (JSON.parse(JSON.stringify(text)) as string)
    return this.copy
  }
}
