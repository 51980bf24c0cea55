/**
 * Escaping text for HTML and SVG: everything a report prints comes from ids, names and messages
 * that a scenario chose, so none of it is trusted as markup.
 */

const ENTITIES: Readonly<Record<string, string>> = {
  '&': '&amp;',
  '<': '&lt;',
  '>': '&gt;',
  '"': '&quot;',
  "'": '&#39;',
};

/** `text` safe inside an element or a quoted attribute. */
export function escapeXml(text: string): string {
  return text.replace(/[&<>"']/g, (char) => ENTITIES[char] ?? char);
}
