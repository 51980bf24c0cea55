/**
 * POST /projects/{project_id}/branches/{branch_id}/restore: a branch restored to a point of its own,
 * its parent's or another branch's history (see model/handlers/restoreBranch.ts). `neonctl branches
 * reset --parent` sends this too, with the parent as source and no point (its head).
 */
import { tryParseInstant } from '../../core/instant.js';
import { parseLsn } from '../../domain/lsn.js';
import { reject } from '../../domain/rejection.js';
import { errorResponse } from '../apiResponse.js';
import { BodyReader } from '../bodyReader.js';
import { branchDto } from '../dto.js';
import type { Route } from '../route.js';
import { findBranch } from './lookup.js';
import { executed, recordedOperations } from './responses.js';

const ID = /^[a-z0-9-]{1,60}$/;

/** POST /projects/{project_id}/branches/{branch_id}/restore */
export const restoreBranchRoute: Route = {
  method: 'POST',
  pattern: '/projects/{project_id}/branches/{branch_id}/restore',
  handle({ params, body, target }) {
    const found = findBranch(target, params);
    if (!found.ok) return errorResponse(found.error);
    const reader = BodyReader.ofBody(body);
    const sourceBranchId = reader.string('source_branch_id', ID, 'a branch id');
    if (reader.object['source_branch_id'] === undefined)
      reader.fail('source_branch_id is required');
    const lsnText = reader.string('source_lsn', /^.*$/su, 'an LSN such as 0/1E19478');
    const sourceLsn = lsnText === undefined ? undefined : parseLsn(lsnText);
    if (lsnText !== undefined && sourceLsn === undefined)
      reader.fail(`source_lsn must be an LSN such as 0/1E19478, got ${JSON.stringify(lsnText)}`);
    const timestampText = reader.string('source_timestamp', /^.*$/su, 'an ISO 8601 timestamp');
    const timestamp = timestampText === undefined ? undefined : tryParseInstant(timestampText);
    if (timestamp !== undefined && !timestamp.ok)
      reader.fail(
        `source_timestamp must be an ISO 8601 timestamp such as 2024-02-26T12:00:00Z, got ${JSON.stringify(timestampText)}`,
      );
    const preserve = reader.string(
      'preserve_under_name',
      /^.{0,256}$/su,
      'a branch name of up to 256 characters',
    );
    if (reader.problem !== undefined || sourceBranchId === undefined)
      return errorResponse(
        reader.problem ?? reject('invalid_input', 'source_branch_id is required'),
      );
    const { projectId, id } = found.value;
    const result = target.execute({
      type: 'RestoreBranch',
      projectId,
      branchId: id,
      sourceBranchId,
      ...(sourceLsn === undefined ? {} : { sourceLsn }),
      ...(timestamp?.ok === true ? { sourceTimestamp: timestamp.value } : {}),
      // The schema: "if not empty, the previous state of the branch will be saved".
      ...(preserve === undefined || preserve === '' ? {} : { preserveUnderName: preserve }),
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
