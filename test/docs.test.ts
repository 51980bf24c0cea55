/**
 * docs/testing.md stays true: its complete example is the tested file test/examples/guide.test.ts,
 * and its fault profile example is a valid profile. docs/README.md indexes every page of docs/, and
 * its links lead somewhere.
 */
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { faultProfileProblem, runClient } from '../src/testing/index.js';

const guide = readFileSync(new URL('../docs/testing.md', import.meta.url), 'utf8');

/** Imports of the repository's tests, as the package names them in the guide. */
const AS_PUBLISHED: readonly (readonly [string, string])[] = [
  [`'../../src/testing/index.js'`, `'computesim/testing'`],
  [`'../../src/msw/index.js'`, `'computesim/msw'`],
  [`'../../src/simulation/simulation.js'`, `'computesim'`],
  [`'../../src/index.js'`, `'computesim'`],
];

/** The lines of a tested file between `// <marker>:start` and `// <marker>:end`, as published. */
function testedBlock(file: string, marker: string, indent = ''): string {
  const text = readFileSync(new URL(file, import.meta.url), 'utf8')
    .split(`${indent}// ${marker}:start\n`)[1]!
    .split(`${indent}// ${marker}:end`)[0]!;
  const dedented = indent === '' ? text : text.replace(new RegExp(`^${indent}`, 'gm'), '');
  return AS_PUBLISHED.reduce((code, [from, to]) => code.replaceAll(from, to), dedented);
}

describe('docs/testing.md', () => {
  it.each([
    ['the complete example', './examples/guide.test.ts', 'guide', ''],
    ['the property written by hand', './examples/guideByHand.test.ts', 'byHand', ''],
    ['the serverless-driver example', './examples/serverlessApp.test.ts', 'serverless', ''],
    ['the fault property of the serverless-driver app', './msw/faults.test.ts', 'property', ''],
    ['the property run of checkTimeline', './testing/checkTimeline.test.ts', 'checkTimeline', '  '],
  ])('shows %s as tested, word for word', (_what, file, marker, indent) => {
    expect(guide).toContain('```ts\n' + testedBlock(file, marker, indent) + '```');
  });

  it('gives a fault profile that is valid and runs', async () => {
    const literal = /const faults = (\{[\s\S]*?\n\});/.exec(guide)?.[1];
    expect(literal).toBeDefined();
    const faults = new Function(`return ${literal!}`)() as object;
    expect(faultProfileProblem(faults)).toBeUndefined();
    expect(faults).toHaveProperty(['requests', 'routes']);
    const run = await runClient(({ fetch, baseURL }) => fetch(`${baseURL}/projects`), {
      seed: 1,
      faults,
    });
    expect(run.outcome).toBe('returned');
  });
});

describe('docs/README.md', () => {
  const docs = new URL('../docs/', import.meta.url);
  const index = readFileSync(new URL('README.md', docs), 'utf8');
  const links = [...index.matchAll(/\]\(([^)\s]+)\)/g)].map((match) => match[1]!);

  it('links every page of docs/', () => {
    const pages = readdirSync(docs).filter((file) => file.endsWith('.md') && file !== 'README.md');
    expect(pages.length).toBeGreaterThan(5);
    for (const page of pages) expect(links, page).toContain(page);
  });

  it('links only files that exist, and headings of the README that exist', () => {
    /** GitHub's anchor of a heading: lower case, punctuation dropped, spaces as hyphens. */
    const anchor = (heading: string) =>
      heading
        .toLowerCase()
        .replace(/[^\p{L}\p{N}\s-]/gu, '')
        .replace(/\s/g, '-');
    const readme = readFileSync(new URL('../README.md', import.meta.url), 'utf8');
    const anchors = [...readme.matchAll(/^#{1,6} (.+)$/gm)].map((match) => anchor(match[1]!));
    for (const link of links) {
      const [file, fragment] = link.split('#') as [string, string | undefined];
      expect(existsSync(new URL(file, docs)), link).toBe(true);
      if (fragment !== undefined) {
        expect(file, link).toBe('../README.md');
        expect(anchors, link).toContain(fragment);
      }
    }
  });
});
