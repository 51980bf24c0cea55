/**
 * Pieces shared by route handlers: running a command and answering with the records it touched.
 */
import type { Result } from '../../core/result.js';
import type { Rejection } from '../../domain/rejection.js';
import type { DomainEvent } from '../../model/events.js';
import type { ProjectState } from '../../model/state.js';
import { operationsCreated } from '../../model/operationDeclarations.js';
import { operationIn } from '../../model/operationStore.js';
import { errorResponse, type ApiResponse } from '../apiResponse.js';
import { operationDto } from '../dto.js';
import type { RequestTarget } from '../requestTarget.js';

/** The operations a command recorded, as API records, from the state after it. */
export function recordedOperations(
  target: RequestTarget,
  projectId: string,
  events: readonly DomainEvent[],
): unknown[] {
  const project = target.state.projects[projectId];
  const recorded: unknown[] = [];
  if (project === undefined) return recorded;
  for (const id of operationsCreated(events, projectId)) {
    const operation = operationIn(project, id);
    if (operation !== undefined) recorded.push(operationDto(operation));
  }
  return recorded;
}

/** Runs a command; on success answers with `respond(events)`, on refusal with the error response. */
export function executed(
  result: Result<readonly DomainEvent[], Rejection>,
  respond: (events: readonly DomainEvent[]) => ApiResponse,
): ApiResponse {
  return result.ok ? respond(result.value) : errorResponse(result.error);
}

/** The proxy host of a project's region (from any compute; computed when it has none). */
export function proxyHostOf(project: ProjectState, hostDomain: string): string {
  const first = Object.values(project.endpoints)[0];
  return first?.proxyHost ?? `${project.regionId.replace(/^[a-z]+-/, '')}.${hostDomain}`;
}
