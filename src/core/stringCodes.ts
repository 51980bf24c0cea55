/**
 * Strings interned as small integer codes: a column of codes holds a few distinct strings (ids of
 * projects and computes, action and status names) without a reference to a string per row.
 */

/** A two-way table of strings and the codes given to them in order of first sight. */
export class StringCodes {
  readonly #codes = new Map<string, number>();
  readonly #strings: string[] = [];

  /** The code of `text`, giving it the next one when it is new. */
  codeOf(text: string): number {
    let code = this.#codes.get(text);
    if (code === undefined) {
      code = this.#strings.length;
      this.#codes.set(text, code);
      this.#strings.push(text);
    }
    return code;
  }

  /** The code of `text` when it has one (without giving it one). */
  find(text: string): number | undefined {
    return this.#codes.get(text);
  }

  /** The string of a code given earlier. */
  text(code: number): string {
    const text = this.#strings[code];
    if (text === undefined) throw new RangeError(`no string has code ${code}`);
    return text;
  }
}
