/**
 * POST /projects/{project_id}/branches/{branch_id}/restore: a branch restored to a point of its own,
 * its parent's or another branch's history (see model/handlers/restoreBranch.ts). `neonctl branches
 * reset --parent` sends this too, with the parent as source and no point (its head).
 */
import type { BranchRestoreRequest } from '@neondatabase/api-client';
import { tryParseInstant } from '../../core/instant.js';
import { err, ok, type Result } from '../../core/result.js';
import { branchNameProblem } from '../../domain/branchNames.js';
import { parseLsn } from '../../domain/lsn.js';
import { reject, type Rejection } from '../../domain/rejection.js';
import type { RestoreBranch } from '../../model/commands.js';
import { errorResponse } from '../apiResponse.js';
import { branchDto } from '../dto.js';
import { presentFields } from '../presentFields.js';
import type { Route } from '../route.js';
import { findBranch } from './lookup.js';
import { executed, recordedOperations } from './responses.js';

/** POST /projects/{project_id}/branches/{branch_id}/restore */
export const restoreBranchRoute: Route<BranchRestoreRequest> = {
  method: 'POST',
  pattern: '/projects/{project_id}/branches/{branch_id}/restore',
  handle({ params, body, target }) {
    const found = findBranch(target, params);
    if (!found.ok) return errorResponse(found.error);
    const point = restorePoint(body);
    if (!point.ok) return errorResponse(point.error);
    const { projectId, id } = found.value;
    const result = target.execute({
      type: 'RestoreBranch',
      projectId,
      branchId: id,
      sourceBranchId: body.source_branch_id,
      ...point.value,
    });
    return executed(result, (events) => {
      const branch = target.state.projects[projectId]?.branches[id];
      if (branch === undefined) throw new Error('restored branch missing from state');
      return {
        status: 200,
        body: {
          branch: branchDto(branch),
          operations: recordedOperations(target, projectId, events),
        },
      };
    });
  },
};

/**
 * The point and the preserved name of a restore, read from their text: what the schema types as
 * any string (an LSN, a branch name) or as a date-time computesim cannot read is refused, naming
 * the field.
 */
function restorePoint(
  body: BranchRestoreRequest,
): Result<Pick<RestoreBranch, 'sourceLsn' | 'sourceTimestamp' | 'preserveUnderName'>, Rejection> {
  const { source_lsn: lsnText, source_timestamp: timestampText } = body;
  const sourceLsn = lsnText === undefined ? undefined : parseLsn(lsnText);
  if (lsnText !== undefined && sourceLsn === undefined)
    return refused(`source_lsn must be an LSN such as 0/1E19478, got ${JSON.stringify(lsnText)}`);
  const timestamp = timestampText === undefined ? undefined : tryParseInstant(timestampText);
  if (timestamp !== undefined && !timestamp.ok)
    return refused(
      `source_timestamp must be an ISO 8601 timestamp such as 2024-02-26T12:00:00Z, got ${JSON.stringify(timestampText)}`,
    );
  // The schema: "if not empty, the previous state of the branch will be saved".
  const preserve = body.preserve_under_name === '' ? undefined : body.preserve_under_name;
  const nameProblem = preserve === undefined ? undefined : branchNameProblem(preserve);
  if (nameProblem !== undefined) return refused(`preserve_under_name ${nameProblem}`);
  return ok(
    presentFields({
      sourceLsn,
      sourceTimestamp: timestamp?.value,
      preserveUnderName: preserve,
    }),
  );
}

function refused(message: string): Result<never, Rejection> {
  return err(reject('invalid_input', message));
}
