/**
 * One line of the dashboard's live feed: an event of the log as the narrator tells it, or a request
 * the server answered, with the project it concerns so the page can filter by project.
 */
import type { SimEvent } from '../model/events.js';

/** What happened, as the page lists it (newest first). */
export interface FeedItem {
  /** `event` for the log's events, `request` for requests the server answered. */
  readonly kind: 'event' | 'request';
  /** Virtual time, epoch ms. */
  readonly at: number;
  /** The event's type (`OperationStarted`), or the request's status as text (`201`). */
  readonly type: string;
  /** The project it concerns, when it concerns one. */
  readonly projectId?: string;
  readonly text: string;
  /** The event's sequence number in the log. */
  readonly seq?: number;
}

/** A request as the feed shows it: `POST /projects/p-1/branches → 201`. */
export interface RequestRecord {
  readonly method: string;
  /** Path and query from `/api/v2` on. */
  readonly path: string;
  readonly status: number;
  readonly at: number;
}

/** The feed line of `event`, told as `text` (from the narrator). */
export function eventItem(event: SimEvent, text: string): FeedItem {
  const projectId = 'projectId' in event ? event.projectId : undefined;
  return {
    kind: 'event',
    at: event.at,
    type: event.type,
    ...(projectId === undefined ? {} : { projectId }),
    text,
    seq: event.seq,
  };
}

/** The feed line of an answered request. */
export function requestItem(request: RequestRecord): FeedItem {
  const projectId = /^\/projects\/([^/?]+)/.exec(request.path)?.[1];
  return {
    kind: 'request',
    at: request.at,
    type: String(request.status),
    ...(projectId === undefined ? {} : { projectId: safeDecode(projectId) }),
    text: `${request.method} ${request.path} → ${request.status}`,
  };
}

function safeDecode(segment: string): string {
  try {
    return decodeURIComponent(segment);
  } catch {
    return segment;
  }
}
