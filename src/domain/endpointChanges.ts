/**
 * How a change of compute settings takes effect: which fields restart a running compute and which
 * apply in place (the spec's "effects of changes on a running compute").
 */

/** Fields whose change restarts a running compute (size, autoscaling limits, provisioner). */
export const RESTARTING_FIELDS: ReadonlySet<string> = new Set(['minCu', 'maxCu', 'provisioner']);
