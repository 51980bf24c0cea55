/**
 * The one account a simulation serves: a user and the organization it belongs to. Every project and
 * every API key belongs to them. Fixed values (not drawn), so they are the same in every run and for
 * every client configured against a simulator.
 */

/** The simulated user (the owner of personal API keys and of every project). */
export const SIMULATED_USER = {
  id: '0c5a1e5e-5e1d-4c0e-9a1b-c0435e51b001',
  email: 'user@computesim.test',
  name: 'Compute',
  lastName: 'Sim',
  image: '',
  plan: 'scale',
  projectsLimit: 1000,
  branchesLimit: 5000,
  maxAutoscalingLimitCu: 16,
} as const;

/** The organization the simulated user belongs to (and that owns organization and project keys). */
export const SIMULATED_ORG = {
  id: 'org-computesim-00000001',
  name: 'computesim',
  handle: 'computesim-00000001',
  plan: 'scale',
  /** When it was created: the simulated service's epoch (before any simulation starts). */
  createdAt: '2024-03-01T00:00:00Z',
} as const;
