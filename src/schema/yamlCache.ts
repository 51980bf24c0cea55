/**
 * A YAML file parsed once per version of it, not once per process or worker thread: the document is
 * kept as JSON in the temporary directory, keyed by the file's path, size and modification time.
 * For the public schema this saves each thread about a tenth of a second of parsing and about a
 * quarter of a second of V8 optimising the parser. The JSON is kept only when it gives back exactly
 * the parsed document (YAML can hold what JSON cannot, dates for one), and written as ASCII, so its
 * strings load one-byte. Any failure to read or write it just means parsing the YAML.
 */
import {
  mkdirSync,
  mkdtempSync,
  readFileSync,
  renameSync,
  rmSync,
  statSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { isDeepStrictEqual } from 'node:util';
import { hashString } from '../core/hash.js';

/** Changes when what is kept changes, so older copies are not read. */
const FORMAT = 1;

interface Kept {
  readonly format: number;
  readonly source: { readonly file: string; readonly size: number; readonly mtimeMs: number };
  readonly document: unknown;
}

/** The folder of the kept documents: one per user. */
function yamlCacheFolder(): string {
  return join(tmpdir(), `computesim-cache-${process.getuid?.() ?? 'user'}`);
}

/** The document of the YAML file `file`, from its kept JSON when there is one, else by `parse`. */
export function cachedYaml(
  file: string,
  parse: (text: string) => unknown,
  folder: string = yamlCacheFolder(),
): unknown {
  let source: Kept['source'];
  try {
    const { size, mtimeMs } = statSync(file);
    source = { file, size, mtimeMs };
  } catch {
    return parse(readFileSync(file, 'utf8'));
  }
  const path = join(folder, `yaml-${hashString(JSON.stringify(source)).toString(16)}.json`);
  const kept = read(path);
  if (kept?.format === FORMAT && isDeepStrictEqual(kept.source, source)) return kept.document;
  const document = parse(readFileSync(file, 'utf8'));
  keep(path, folder, { format: FORMAT, source, document });
  return document;
}

function read(path: string): Kept | undefined {
  try {
    return JSON.parse(readFileSync(path, 'latin1')) as Kept;
  } catch {
    return undefined;
  }
}

/** Writes `kept` at `path` (whole or not at all) if its JSON gives back its document. */
function keep(path: string, folder: string, kept: Kept): void {
  try {
    const text = ascii(JSON.stringify(kept));
    if (!isDeepStrictEqual((JSON.parse(text) as Kept).document, kept.document)) return;
    mkdirSync(folder, { recursive: true });
    const scratch = mkdtempSync(join(folder, 'writing-'));
    try {
      writeFileSync(join(scratch, 'yaml.json'), text, 'latin1');
      renameSync(join(scratch, 'yaml.json'), path);
    } finally {
      rmSync(scratch, { recursive: true, force: true });
    }
  } catch {
    // Not kept: the next process parses the YAML again.
  }
}

/** JSON text with every character past U+007F written as a `\u` escape. */
function ascii(json: string): string {
  return json.replace(
    /[\u0080-\uffff]/g,
    (wide) => `\\u${wide.charCodeAt(0).toString(16).padStart(4, '0')}`,
  );
}
