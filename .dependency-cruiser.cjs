// Import rules of src/, read from the layer table in docs/architecture.md (the one place they are
// written): each folder may import only the folders its row names, by static or dynamic import; no
// import cycles. Run by `npm run lint`, with .dependency-cruiser-static.cjs beside it.
const { readFileSync } = require('node:fs');
const { join } = require('node:path');

/** The rows of the table between the layers markers: folder → folders it may import. */
function layers() {
  const doc = readFileSync(join(__dirname, 'docs', 'architecture.md'), 'utf8');
  const table = /<!-- layers:start -->([\s\S]*?)<!-- layers:end -->/.exec(doc);
  if (table === null) throw new Error('docs/architecture.md has no layers table');
  const rows = {};
  for (const line of table[1].split('\n')) {
    const cells = line.split('|').map((cell) => cell.trim());
    const folder = /^`([a-z]+)`$/.exec(cells[1] ?? '')?.[1];
    if (folder === undefined) continue;
    rows[folder] = [...(cells[3] ?? '').matchAll(/`([a-z]+)`/g)].map((match) => match[1]);
  }
  if (Object.keys(rows).length === 0)
    throw new Error('docs/architecture.md: the layers table is empty');
  return rows;
}

const rows = layers();
const folders = Object.keys(rows);

module.exports = {
  forbidden: [
    {
      name: 'no-cycle',
      comment: 'Files that import each other, directly or around a circle: break the circle.',
      severity: 'error',
      from: { path: '^src/' },
      to: { circular: true },
    },
    {
      name: 'known-layer',
      comment: 'Every folder of src/ has a row in the layers table of docs/architecture.md.',
      severity: 'error',
      from: { path: '^src/[^/]+/', pathNot: `^src/(${folders.join('|')})/` },
      to: {},
    },
    ...folders.map((folder) => ({
      name: `layer-${folder}`,
      comment:
        `src/${folder}/ may import only ${rows[folder].length === 0 ? 'itself' : rows[folder].join(', ')} ` +
        '(docs/architecture.md, "The layers")',
      severity: 'error',
      from: { path: `^src/${folder}/` },
      to: { path: '^src/', pathNot: `^src/(${[folder, ...rows[folder]].join('|')})/` },
    })),
    {
      name: 'core-without-server',
      comment:
        'The in-process simulation does not depend on the server layer or load the schema itself: ' +
        'the API pipeline validates bodies, the service adds what serving adds.',
      severity: 'error',
      from: { path: '^src/simulation/' },
      to: { path: '^src/(service|schema|http)/' },
    },
    {
      name: 'root-entry',
      comment:
        'The root entry exports the library: not the CLI, the server or the testing toolkit.',
      severity: 'error',
      from: { path: '^src/index\\.ts$' },
      to: { path: '^src/(cli|http|testing)/' },
    },
  ],
  options: {
    includeOnly: ['^src/', 'worker_threads$'],
    tsPreCompilationDeps: true,
    tsConfig: { fileName: 'tsconfig.json' },
    enhancedResolveOptions: { extensions: ['.ts', '.js'] },
  },
};
