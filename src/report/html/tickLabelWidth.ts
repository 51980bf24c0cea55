/**
 * How wide a tick label is drawn, estimated once for every axis (time, number, category): the
 * stylesheet's tick font size, and a per-character width that errs towards room.
 */

/** Font size of tick labels, px (the stylesheet's `.tick` uses it). */
export const TICK_FONT_PX = 11;

/**
 * Width of one label character, in ems: an upper bound for the digits and punctuation of a clock
 * time or a number in common sans-serif fonts (DejaVu Sans's digits, the widest, are 0.636 em).
 */
const CHAR_EM = 0.65;

/** The estimated width of a tick label, px: a generous bound, so estimates err towards room. */
export function labelWidth(text: string): number {
  return text.length * CHAR_EM * TICK_FONT_PX;
}
