/**
 * The rows of a Markdown table a document marks (`<!-- name:start -->` … `<!-- name:end -->`), as
 * trimmed cells, its header and rule left out: for tests that hold a document to the code's table.
 */

/** The body rows of the table between `name`'s markers in `doc` (none when the markers are missing). */
export function markedTable(doc: string, name: string): string[][] {
  const start = doc.indexOf(`<!-- ${name}:start -->`);
  const end = doc.indexOf(`<!-- ${name}:end -->`);
  if (start === -1 || end === -1) return [];
  return doc
    .slice(start, end)
    .split('\n')
    .filter((line) => line.startsWith('|'))
    .slice(2)
    .map((line) =>
      line
        .split('|')
        .slice(1, -1)
        .map((cell) => cell.trim()),
    );
}
