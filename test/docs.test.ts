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
  [`'../../src/entries/studies.js'`, `'computesim/studies'`],
  [`'../../src/entries/model.js'`, `'computesim/model'`],
  [`'../../src/entries/serve.js'`, `'computesim/serve'`],
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

/** GitHub's anchor of a heading: lower case, punctuation dropped, spaces as hyphens. */
function anchor(heading: string): string {
  return heading
    .toLowerCase()
    .replace(/[^\p{L}\p{N}\s-]/gu, '')
    .replace(/\s/g, '-');
}

/** The anchors of a Markdown file's headings (outside code blocks). */
function headingAnchors(file: URL): string[] {
  const text = readFileSync(file, 'utf8').replace(/```[\s\S]*?```/g, '');
  return [...text.matchAll(/^#{1,6} (.+)$/gm)].map((match) => anchor(match[1]!));
}

describe('docs/README.md', () => {
  const docs = new URL('../docs/', import.meta.url);
  const index = readFileSync(new URL('README.md', docs), 'utf8');
  const links = [...index.matchAll(/\]\(([^)\s]+)\)/g)].map((match) => match[1]!);

  it('links every page of docs/', () => {
    const pages = readdirSync(docs).filter((file) => file.endsWith('.md') && file !== 'README.md');
    expect(pages.length).toBeGreaterThan(5);
    for (const page of pages) expect(links, page).toContain(page);
  });

  it('links only files that exist, and headings that exist in them', () => {
    for (const link of links) {
      const [file, fragment] = link.split('#') as [string, string | undefined];
      const target = new URL(file, docs);
      expect(existsSync(target), link).toBe(true);
      if (fragment !== undefined) expect(headingAnchors(target), link).toContain(fragment);
    }
  });

  it("leaves no link of the README's or a moved page's pointing at a heading that is not there", () => {
    const root = new URL('../', import.meta.url);
    const pages = [
      new URL('README.md', root),
      ...readdirSync(docs)
        .filter((file) => file.endsWith('.md'))
        .map((file) => new URL(file, docs)),
    ];
    for (const page of pages) {
      const text = readFileSync(page, 'utf8');
      for (const [, link] of text.matchAll(/\]\(([^)\s]+)\)/g)) {
        if (/^[a-z]+:/.test(link!)) continue; // http:, mailto:
        const [file, fragment] = link!.split('#') as [string, string | undefined];
        const target = file === '' ? page : new URL(file, page);
        expect(existsSync(target), `${page.pathname}: ${link}`).toBe(true);
        if (fragment !== undefined && target.pathname.endsWith('.md'))
          expect(headingAnchors(target), `${page.pathname}: ${link}`).toContain(fragment);
      }
    }
  });
});
