/**
 * The regions a project can be created in: the real service's (its public documentation), and the
 * profile's own region, so a profile may name a region the list does not have.
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
export function isKnownRegion(regionId: string, profileRegionId: string): boolean {
  return regionId === profileRegionId || SERVICE_REGIONS.includes(regionId);
}
