/**
 * Packages that only some features use (a Redis queue, Postgres over the wire, TypeScript
 * definition files) are optional peer dependencies: a user who needs only the in-process API does
 * not install them. Each is loaded where its feature starts, and a missing one becomes one line
 * naming the feature, the package and the command that installs what the feature needs.
 */
import { createRequire } from 'node:module';

/** A feature that needs packages computesim does not install by itself. */
export interface OptionalFeature {
  /** What the user asked for, as messages name it (`serve --pg-port`). */
  readonly name: string;
  /** Every package the feature needs, in the order `npm install` is told them. */
  readonly packages: readonly string[];
}

/** A package a feature needs is not installed. */
export class MissingPackageError extends Error {
  override name = 'MissingPackageError';

  constructor(
    /** The feature that needs it. */
    readonly feature: OptionalFeature,
    /** The package that is missing. */
    readonly packageName: string,
    options?: ErrorOptions,
  ) {
    super(
      `${feature.name} needs the package "${packageName}": npm install ${feature.packages.join(' ')}`,
      options,
    );
  }
}

/**
 * Runs `load` (an `import()` of the package `name`, or of a file in it) for `feature`; rejects with
 * a `MissingPackageError` when the package is not installed. Other failures (a package that is
 * there but lacks one of its own dependencies, say) are rethrown as they are.
 */
export async function loadOptional<T>(
  feature: OptionalFeature,
  name: string,
  load: () => Promise<T>,
): Promise<T> {
  try {
    return await load();
  } catch (error) {
    if (notFound(error, name)) throw new MissingPackageError(feature, name, { cause: error });
    throw error;
  }
}

/**
 * Throws a `MissingPackageError` for the first package of `feature` that cannot be found from
 * here; for a feature that starts threads or servers before it imports them.
 */
export function requireFeature(feature: OptionalFeature): void {
  const require = createRequire(import.meta.url);
  for (const name of feature.packages) {
    try {
      require.resolve(name);
    } catch (error) {
      // A package with no CommonJS entry is there all the same: only a lookup that found nothing counts.
      if ((error as { code?: unknown }).code === 'MODULE_NOT_FOUND')
        throw new MissingPackageError(feature, name, { cause: error });
    }
  }
}

/** Whether `error` is the import failing because the package `name` itself is not installed. */
function notFound(error: unknown, name: string): boolean {
  if ((error as { code?: unknown } | undefined)?.code !== 'ERR_MODULE_NOT_FOUND') return false;
  // Node names the package (`Cannot find package 'tsx' imported from …`); vitest names the specifier.
  const missing = /Cannot find package '([^']+)'/.exec((error as Error).message)?.[1];
  return missing === name || missing?.startsWith(`${name}/`) === true;
}
