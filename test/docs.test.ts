/**
 * docs/testing.md stays true: its complete example is the tested file test/examples/guide.test.ts,
 * and its fault profile example is a valid profile. docs/README.md indexes every page of docs/, and
 * its links lead somewhere.
 */
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { faultProfileProblem, runClient } from '../src/testing/index.js';

const guide = readFileSync(new URL('../docs/testing.md', import.meta.url), 'utf8');

describe('docs/testing.md', () => {
  it('shows the tested example, word for word', () => {
    const tested = readFileSync(new URL('./examples/guide.test.ts', import.meta.url), 'utf8')
      .split('// guide:start\n')[1]!
      .split('// guide:end')[0]!
      .replace(`'../../src/testing/index.js'`, `'computesim/testing'`)
      .replace(`'../../src/index.js'`, `'computesim'`);
    expect(guide).toContain('```ts\n' + tested + '```');
  });

  it('shows the property written by hand, tested, word for word', () => {
    const tested = readFileSync(new URL('./examples/guideByHand.test.ts', import.meta.url), 'utf8')
      .split('// byHand:start\n')[1]!
      .split('// byHand:end')[0]!
      .replace(`'../../src/testing/index.js'`, `'computesim/testing'`);
    expect(guide).toContain('```ts\n' + tested + '```');
  });

  it('shows the tested serverless-driver example, word for word', () => {
    const tested = readFileSync(
      new URL('./examples/serverlessApp.test.ts', import.meta.url),
      'utf8',
    )
      .split('// serverless:start\n')[1]!
      .split('// serverless:end')[0]!
      .replace(`'../../src/index.js'`, `'computesim'`)
      .replace(`'../../src/msw/index.js'`, `'computesim/msw'`);
    expect(guide).toContain('```ts\n' + tested + '```');
  });

  it('shows the tested fault property of the serverless-driver app, word for word', () => {
    const tested = readFileSync(new URL('./msw/faults.test.ts', import.meta.url), 'utf8')
      .split('// property:start\n')[1]!
      .split('// property:end')[0]!
      .replace(`'../../src/msw/index.js'`, `'computesim/msw'`)
      .replace(`'../../src/simulation/simulation.js'`, `'computesim'`);
    expect(guide).toContain('```ts\n' + tested + '```');
  });

  it('shows the tested property run of checkTimeline, word for word', () => {
    const tested = readFileSync(new URL('./testing/checkTimeline.test.ts', import.meta.url), 'utf8')
      .split('  // checkTimeline:start\n')[1]!
      .split('  // checkTimeline:end')[0]!
      .replace(/^ {2}/gm, '');
    expect(guide).toContain('```ts\n' + tested + '```');
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
