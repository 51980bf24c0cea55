// The rules about what importing computesim loads at once: static imports only (a dynamic import is
// how a feature loads on demand). Run by `npm run lint` after .dependency-cruiser.cjs.
const layered = require('./.dependency-cruiser.cjs');

module.exports = {
  forbidden: [
    {
      name: 'root-entry-without-worker-threads',
      comment: 'Importing computesim must not load node:worker_threads (load it on demand).',
      severity: 'error',
      from: { path: '^src/index\\.ts$' },
      to: { path: 'worker_threads$', reachable: true },
    },
  ],
  options: { ...layered.options, exclude: { dynamic: true } },
};
