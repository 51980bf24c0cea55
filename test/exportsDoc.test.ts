/**
 * docs/exports.md stays what the entry points export: the committed page is exactly what
 * `npm run docs:exports` renders, every public name has a TSDoc line to render, and the root entry
 * stays a front door of a few dozen names (the rest behind subpaths by job).
 */
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import {
  EXPORTS_COMMAND,
  EXPORTS_DOC,
  readEntryPoints,
  renderExports,
  type EntryPoint,
} from '../scripts/exportsDoc.js';

const committed = readFileSync(new URL(`../${EXPORTS_DOC}`, import.meta.url), 'utf8');
let entries: EntryPoint[] | undefined;
/** The entry points, read once: a compiler program costs seconds. */
const entryPoints = () => (entries ??= readEntryPoints());

describe(EXPORTS_DOC, () => {
  it('is up to date with the entry points', async () => {
    const rendered = await renderExports(entryPoints());
    expect(
      committed === rendered,
      `${EXPORTS_DOC} is out of date: regenerate it with \`${EXPORTS_COMMAND}\` and commit it`,
    ).toBe(true);
  }, 60_000);

  it('has a line of TSDoc for every public name, and a header for every entry', () => {
    const undocumented = entryPoints().flatMap(({ specifier, names }) =>
      names.filter((name) => name.summary === '').map((name) => `${specifier}: ${name.name}`),
    );
    expect(undocumented).toEqual([]);
    for (const entry of entryPoints()) expect(entry.summary, entry.specifier).not.toBe('');
  }, 60_000);

  it('keeps the root entry to at most 40 names, with the simulation among them', () => {
    const root = entryPoints().find((entry) => entry.specifier === 'computesim');
    expect(root?.names.length).toBeLessThanOrEqual(40);
    expect(root?.names.map((name) => name.name)).toContain('Simulation');
    const readme = readFileSync(new URL('../README.md', import.meta.url), 'utf8');
    expect(readme).toContain(`what every user needs (${root?.names.length} names)`);
  }, 60_000);

  it('lists each name under one entry, but for engine names another entry shares', () => {
    const seen = new Map<string, string>();
    const twice: string[] = [];
    const shared = (a: string, b: string) =>
      (a === 'computesim/engine') !== (b === 'computesim/engine');
    for (const { specifier, names } of entryPoints())
      for (const { name } of names) {
        const first = seen.get(name);
        if (first !== undefined && !shared(first, specifier))
          twice.push(`${name}: ${first}, ${specifier}`);
        seen.set(name, specifier);
      }
    expect(twice).toEqual([]);
  }, 60_000);
});
