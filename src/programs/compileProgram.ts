/**
 * Compiles TypeScript sources with esbuild, into one JavaScript module for a worker thread or one
 * script for a page. A module keeps what running its sources as they are would see: installed
 * packages stay outside it, imported from where they are installed (by absolute URL, so the module
 * may be written anywhere), and every compiled file keeps its own `import.meta.url`, `dirname` and
 * `filename`. A file that uses more of `import.meta` is refused, since the module could not keep
 * it. A page's script holds everything it imports, packages too.
 */
import { readFileSync } from 'node:fs';
import { isBuiltin } from 'node:module';
import { dirname } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import type { BuildFailure, BuildOptions, Loader, Message, Plugin } from 'esbuild';

/** Sources that do not compile into a module or a script, with esbuild's first complaint. */
export class CompileError extends Error {
  override name = 'CompileError';
}

/**
 * The module made of `source` (JavaScript whose imports name files by absolute path) and all it
 * imports but packages, to be written at `outfile`. Throws a `CompileError`.
 */
export async function compileModule(source: string, outfile: string): Promise<string> {
  const { text, warnings } = await compile({
    stdin: { contents: source, resolveDir: dirname(outfile), sourcefile: 'entry.mjs' },
    outfile,
    format: 'esm',
    platform: 'node',
    target: 'node20',
    // Class and function names stay as written (messages and `name` properties show them).
    keepNames: true,
    sourcemap: 'inline',
    sourcesContent: false,
    // What is left of import.meta once its fields are written out is reported, not compiled.
    supported: { 'import-meta': false },
    plugins: [asWritten()],
  });
  const lost = warnings.find((warning) => warning.id === 'empty-import-meta');
  if (lost !== undefined)
    throw new CompileError(
      describe({ ...lost, text: 'uses import.meta beyond url, dirname and filename' }, lost),
    );
  return text;
}

/**
 * The script a page runs: the TypeScript module at `entry` (a path) and everything it imports, in
 * one classic script (no `import`, no globals of its own) for any current browser. Throws a
 * `CompileError`.
 */
export async function compileScript(entry: string): Promise<string> {
  const { text } = await compile({
    entryPoints: [entry],
    format: 'iife',
    platform: 'browser',
    target: 'es2022',
  });
  return text;
}

/** The one file esbuild makes with `options`, and its warnings. Throws a `CompileError`. */
async function compile(options: BuildOptions): Promise<{ text: string; warnings: Message[] }> {
  const esbuild = await import('esbuild');
  let result;
  try {
    result = await esbuild.build({ ...options, write: false, bundle: true, logLevel: 'silent' });
  } catch (error) {
    throw new CompileError(describe((error as Partial<BuildFailure>).errors?.[0], error));
  }
  // One file: a source map, if any, is inline.
  const [output] = result.outputFiles;
  if (output === undefined) throw new CompileError('esbuild wrote no file');
  return { text: output.text, warnings: result.warnings };
}

/** Passed to esbuild's own resolver, so the plugin does not see its own lookups. */
const LOOKUP = { lookup: true };

/** Leaves packages outside by absolute URL, and writes out each file's own `import.meta` fields. */
function asWritten(): Plugin {
  return {
    name: 'computesim-as-written',
    setup(build) {
      build.onResolve({ filter: /^[^./]/ }, async (args) => {
        if (args.pluginData === LOOKUP) return undefined;
        if (isBuiltin(args.path)) return { path: args.path, external: true };
        if (args.path.startsWith('file:')) {
          const path = fileURLToPath(args.path);
          return installed(path) ? { path: args.path, external: true } : { path };
        }
        const found = await build.resolve(args.path, {
          kind: args.kind,
          importer: args.importer,
          resolveDir: args.resolveDir,
          pluginData: LOOKUP,
        });
        if (found.errors.length > 0) return { errors: found.errors };
        if (found.external) return { path: found.path, external: true };
        return installed(found.path)
          ? { path: pathToFileURL(found.path).href, external: true }
          : { path: found.path };
      });
      build.onLoad({ filter: /\.[cm]?[jt]sx?$/ }, (args) => {
        if (installed(args.path)) return undefined;
        const contents = ownImportMeta(readFileSync(args.path, 'utf8'), args.path);
        return { contents, loader: loaderOf(args.path) };
      });
    },
  };
}

function installed(path: string): boolean {
  return /[\\/]node_modules[\\/]/.test(path);
}

/** `source` with its `import.meta` fields written out as those of the file at `path`. */
function ownImportMeta(source: string, path: string): string {
  return source
    .replace(/\bimport\.meta\.url\b/g, JSON.stringify(pathToFileURL(path).href))
    .replace(/\bimport\.meta\.filename\b/g, JSON.stringify(path))
    .replace(/\bimport\.meta\.dirname\b/g, JSON.stringify(dirname(path)));
}

function loaderOf(path: string): Loader {
  if (path.endsWith('.tsx')) return 'tsx';
  if (path.endsWith('.jsx')) return 'jsx';
  return /\.[cm]?ts$/.test(path) ? 'ts' : 'js';
}

/** `file:line: text` of an esbuild message (the error's own message without one). */
function describe(message: Message | undefined, error: unknown): string {
  if (message === undefined) return error instanceof Error ? error.message : String(error);
  const at = message.location;
  return at === null ? message.text : `${at.file}:${at.line}: ${message.text}`;
}
