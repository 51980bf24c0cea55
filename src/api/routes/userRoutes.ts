/**
 * The current user and its organizations: the one simulated account (`SIMULATED_USER`, `SIMULATED_ORG`).
 * Only a personal key reads `/users/me` (see apiKey.ts); any key lists the organization, as the real
 * service lists the one owning an organization or project key.
 */
import { SIMULATED_ORG, SIMULATED_USER } from '../../domain/simulatedAccount.js';
import type { Route } from '../route.js';

/** GET /users/me */
export const currentUserRoute: Route = {
  method: 'GET',
  pattern: '/users/me',
  handle() {
    const user = SIMULATED_USER;
    return {
      status: 200,
      body: {
        active_seconds_limit: 0,
        id: user.id,
        email: user.email,
        login: user.email,
        name: user.name,
        last_name: user.lastName,
        image: user.image,
        projects_limit: user.projectsLimit,
        branches_limit: user.branchesLimit,
        max_autoscaling_limit: user.maxAutoscalingLimitCu,
        auth_accounts: [
          {
            provider: 'keycloak',
            email: user.email,
            name: user.name,
            login: user.email,
            image: user.image,
          },
        ],
        plan: user.plan,
      },
    };
  },
};

/** GET /users/me/organizations */
export const currentUserOrganizationsRoute: Route = {
  method: 'GET',
  pattern: '/users/me/organizations',
  handle() {
    const org = SIMULATED_ORG;
    return {
      status: 200,
      body: {
        organizations: [
          {
            id: org.id,
            name: org.name,
            handle: org.handle,
            plan: org.plan,
            created_at: org.createdAt,
            updated_at: org.createdAt,
            managed_by: 'console',
          },
        ],
      },
    };
  },
};
