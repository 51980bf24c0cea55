/**
 * Compiles TypeScript sources into one JavaScript module with esbuild, keeping what running them
 * as they are would see: installed packages stay outside the module, imported from where they are
 * installed (by absolute URL, so the module may be written anywhere), and every compiled file keeps
 * its own `import.meta.url`, `dirname` and `filename`. A file that uses more of `import.meta` is
 * refused, since the module could not keep it.
 */
import { readFileSync } from 'node:fs';
import { isBuiltin } from 'node:module';
import { dirname } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import type { BuildFailure, Loader, Message, Plugin } from 'esbuild';

/** Sources that do not compile into a module, with esbuild's first complaint. */
export class CompileError extends Error {
  override name = 'CompileError';
}

/**
 * The module made of `source` (JavaScript whose imports name files by absolute path) and all it
 * imports but packages, to be written at `outfile`. Throws a `CompileError`.
 */
export async function compileModule(source: string, outfile: string): Promise<string> {
  const esbuild = await import('esbuild');
  let result;
  try {
    result = await esbuild.build({
      stdin: { contents: source, resolveDir: dirname(outfile), sourcefile: 'entry.mjs' },
      outfile,
      write: false,
      bundle: true,
      format: 'esm',
      platform: 'node',
      target: 'node20',
      // Class and function names stay as written (messages and `name` properties show them).
      keepNames: true,
      sourcemap: 'inline',
      sourcesContent: false,
      // What is left of import.meta once its fields are written out is reported, not compiled.
      supported: { 'import-meta': false },
      logLevel: 'silent',
      plugins: [asWritten()],
    });
  } catch (error) {
    throw new CompileError(describe((error as Partial<BuildFailure>).errors?.[0], error));
  }
  const lost = result.warnings.find((warning) => warning.id === 'empty-import-meta');
  if (lost !== undefined)
    throw new CompileError(
      describe({ ...lost, text: 'uses import.meta beyond url, dirname and filename' }, lost),
    );
  // One file: the source map is inline.
  const [output] = result.outputFiles;
  if (output === undefined) throw new CompileError('esbuild wrote no module');
  return output.text;
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
