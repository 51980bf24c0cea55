/**
 * The regions a project can be created in: the real service's (its public documentation), and the
 * profile's own region, so a profile may name a region the list does not have. A compute lives in
 * its project's region.
 */

/** The regions of the real service. */
const SERVICE_REGIONS: readonly string[] = [
  'aws-us-east-1',
  'aws-us-east-2',
  'aws-us-west-2',
  'aws-eu-central-1',
  'aws-eu-west-2',
  'aws-ap-southeast-1',
  'aws-ap-southeast-2',
  'aws-sa-east-1',
  'azure-eastus2',
  'azure-westus3',
  'azure-gwc',
];

/** Whether a project may be created in `regionId` (a service region, or the profile's own). */
function isKnownRegion(regionId: string, profileRegionId: string): boolean {
  return regionId === profileRegionId || SERVICE_REGIONS.includes(regionId);
}

/** Why a new project cannot be created in `regionId`, or `undefined`. */
export function projectRegionProblem(
  regionId: string,
  profileRegionId: string,
): string | undefined {
  return isKnownRegion(regionId, profileRegionId)
    ? undefined
    : `unknown region ${JSON.stringify(regionId)}`;
}

/** Why a new compute of a project in `projectRegionId` cannot be in `regionId`, or `undefined`. */
export function computeRegionProblem(
  regionId: string,
  projectRegionId: string,
): string | undefined {
  return regionId === projectRegionId
    ? undefined
    : `region_id must be the project's region, ${projectRegionId}`;
}
