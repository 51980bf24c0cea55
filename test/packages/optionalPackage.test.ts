/**
 * Optional packages: a missing one becomes one line naming the feature, the package and what to
 * install, from a real failed import (nothing mocked); anything else an import throws stays as it
 * is. The list of optional features agrees with docs/install.md and package.json: each of their
 * packages is an optional peer dependency (and a dev dependency, for the tests), none a dependency.
 */
import { mkdirSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { describe, expect, it } from 'vitest';
import { OPTIONAL_FEATURES } from '../../src/packages/optionalFeatures.js';
import {
  loadOptional,
  MissingPackageError,
  requireFeature,
  type OptionalFeature,
} from '../../src/packages/optionalPackage.js';
import { markedTable } from '../support/markedTable.js';

const ABSENT = 'computesim-absent-package';
const feature: OptionalFeature = { name: 'the test feature', packages: [ABSENT, 'zod'] };
/** An import whose specifier TypeScript does not look up. */
const importOf = (specifier: string) => () => import(specifier) as Promise<unknown>;

describe('loadOptional', () => {
  it('turns a package that is not installed into one line: feature, package, install command', async () => {
    const error: unknown = await loadOptional(feature, ABSENT, importOf(ABSENT)).catch(
      (e: unknown) => e,
    );
    expect(error).toBeInstanceOf(MissingPackageError);
    expect((error as Error).message).toBe(
      `the test feature needs the package "${ABSENT}": npm install ${ABSENT} zod`,
    );
    expect((error as MissingPackageError).packageName).toBe(ABSENT);
  });

  it('knows the package from an import of a file in it', async () => {
    await expect(loadOptional(feature, ABSENT, importOf(`${ABSENT}/esm/api`))).rejects.toThrow(
      `needs the package "${ABSENT}"`,
    );
  });

  it('leaves other failures as they are: a package there that lacks one of its own', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'computesim-optional-'));
    mkdirSync(join(dir, 'node_modules', 'present'), { recursive: true });
    writeFileSync(join(dir, 'node_modules', 'present', 'index.mjs'), `import '${ABSENT}';\n`);
    const entry = pathToFileURL(join(dir, 'node_modules', 'present', 'index.mjs')).href;
    const error: unknown = await loadOptional(feature, 'present', importOf(entry)).catch(
      (e: unknown) => e,
    );
    expect(error).not.toBeInstanceOf(MissingPackageError);
    expect((error as { code?: string }).code).toBe('ERR_MODULE_NOT_FOUND');
  });

  it('resolves to the module when it is there', async () => {
    const { z } = await loadOptional(feature, 'zod', () => import('zod'));
    expect(z.string().parse('x')).toBe('x');
  });
});

describe('requireFeature', () => {
  it('names the first package of the feature that is missing', () => {
    expect(() => requireFeature({ name: 'f', packages: ['zod', ABSENT] })).toThrow(
      new MissingPackageError({ name: 'f', packages: ['zod', ABSENT] }, ABSENT),
    );
  });

  it('passes when every package is installed', () => {
    expect(() => requireFeature({ name: 'f', packages: ['zod', 'ws'] })).not.toThrow();
  });
});

describe('the optional features', () => {
  const pkg = JSON.parse(readFileSync(new URL('../../package.json', import.meta.url), 'utf8')) as {
    dependencies: Record<string, string>;
    devDependencies: Record<string, string>;
    peerDependencies: Record<string, string>;
    peerDependenciesMeta: Record<string, { optional?: boolean }>;
  };
  const packages = [...new Set(OPTIONAL_FEATURES.flatMap((f) => f.packages))];

  it('are the rows of the table in docs/install.md, in order, each with its install command', () => {
    const doc = readFileSync(new URL('../../docs/install.md', import.meta.url), 'utf8');
    const rows = markedTable(doc, 'optional-features');
    expect(rows).toHaveLength(OPTIONAL_FEATURES.length);
    OPTIONAL_FEATURES.forEach((feature, i) => {
      expect(rows[i]?.[0]?.startsWith(feature.name), feature.name).toBe(true);
      expect(rows[i]?.[2]).toBe(`\`npm install ${feature.packages.join(' ')}\``);
    });
  });

  it('need only optional peer dependencies, which the tests have as dev dependencies', () => {
    for (const name of packages) {
      expect(pkg.dependencies, name).not.toHaveProperty([name]);
      expect(pkg.peerDependenciesMeta[name]?.optional, name).toBe(true);
      expect(pkg.devDependencies[name], name).toBe(pkg.peerDependencies[name]);
    }
  });
});
