/**
 * Branch names: 1 to 256 characters. The public schema says so for a branch's `name`; a body that
 * names a branch elsewhere (a restore's `preserve_under_name`) is held to the same limit here.
 */

/** The longest branch name, in characters (code points). */
const BRANCH_NAME_MAX_LENGTH = 256;

/** Why `name` cannot name a branch, or `undefined`. */
export function branchNameProblem(name: string): string | undefined {
  const length = [...name].length;
  return length >= 1 && length <= BRANCH_NAME_MAX_LENGTH
    ? undefined
    : `must be a branch name of 1 to ${BRANCH_NAME_MAX_LENGTH} characters`;
}
