/**
 * Where branch data lives on disk: `<root>/<project id>/<branch id>/db-<database id>`. Every part
 * is an id the control plane made, never a name a client chose: a database may be named `..` or
 * `../../etc`, as Postgres allows, and still no name reaches the file system. An id that is not a
 * plain token (letters, digits, `-`, `_`) is refused before any path is built.
 */
import { join } from 'node:path';

/** A branch, by its project. */
export interface BranchRef {
  readonly projectId: string;
  readonly branchId: string;
}

/** One database of a branch, by its id (its name may change; its data does not move). */
export interface DatabaseRef extends BranchRef {
  readonly databaseId: number;
}

/** What a folder of branch data holds: a whole project, one branch, or one database. */
export interface DataPlace {
  readonly projectId: string;
  readonly branchId?: string;
  readonly databaseId?: number;
}

const TOKEN = /^[A-Za-z0-9_-]{1,128}$/;
/** The prefix of a database's folder: the rest is its id. */
const DATABASE_FOLDER_PREFIX = 'db-';

/** The folder's path parts under the root, each checked to be an id. */
export function dataParts(place: DataPlace): string[] {
  const parts = [token(place.projectId, 'project')];
  if (place.branchId !== undefined) parts.push(token(place.branchId, 'branch'));
  if (place.databaseId !== undefined) {
    if (place.branchId === undefined) throw new Error('a database is named within its branch');
    parts.push(databaseFolder(place.databaseId));
  }
  return parts;
}

/** The folder of `place` under `root`. */
export function dataDir(root: string, place: DataPlace): string {
  return join(root, ...dataParts(place));
}

/** `db-<id>`: the folder name of a database. */
export function databaseFolder(databaseId: number): string {
  if (!Number.isSafeInteger(databaseId) || databaseId < 0)
    throw new Error(`not a database id: ${String(databaseId)}`);
  return `${DATABASE_FOLDER_PREFIX}${databaseId}`;
}

/**
 * The folder a database of this name had before folders were named by id
 * (`<project>/<branch>/<URI-encoded name>`), when such a name could have been a folder at all.
 */
export function legacyDatabaseDir(
  root: string,
  branch: BranchRef,
  name: string,
): string | undefined {
  const encoded = encodeURIComponent(name);
  if (encoded === '' || encoded === '.' || encoded === '..') return undefined;
  return join(dataDir(root, { projectId: branch.projectId, branchId: branch.branchId }), encoded);
}

function token(id: string, kind: string): string {
  if (!TOKEN.test(id)) throw new Error(`not a ${kind} id: ${JSON.stringify(id)}`);
  return id;
}
