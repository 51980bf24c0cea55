/**
 * Runs the serverless driver's own tests (`@neondatabase/serverless`, its `tests/cli`: `neon()` over
 * HTTP, `Pool` and `Client` over WebSockets, compared with node-postgres over TCP) against
 * `computesim serve --pg-port`, as a measure of the front no one here wrote. The driver is pointed at
 * serve by a setup file the runner writes into the checkout (`fetchEndpoint`, `wsProxy`, no TLS on
 * the loopback WebSocket) and the URLs of a fresh project; node-postgres reaches the compute's host
 * by name, so that host must resolve to 127.0.0.1 (`--hosts` adds it to /etc/hosts when run as
 * root, otherwise the runner says which line to add). Prints each test's outcome and what changed
 * against the list of tests that passed before (`serverlessDriverSuite.passing.txt`); `--write`
 * records this run's list there.
 *
 * The suite is not part of this repository: give the path of a checkout of the driver with its
 * dependencies installed (`npm install --ignore-scripts`); its bundled `index.js` is committed there.
 *
 * `--engine postgres` serves the databases on a Postgres server (serve's `--pg-engine`); the
 * passing list is the same for both engines.
 *
 * Run: npx tsx scripts/serverlessDriverSuite.ts <driver checkout> [--engine pglite|postgres]
 *        [--hosts] [--write]
 */
import { spawn } from 'node:child_process';
import { lookup } from 'node:dns/promises';
import { appendFileSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { startServeChild, type ServeChild } from '../benchmarks/support/serveChild.js';

const PASSING_LIST = fileURLToPath(new URL('serverlessDriverSuite.passing.txt', import.meta.url));

/** Tests that need the real service's surroundings, not a local server (the reason beside each). */
const NOT_LOCAL: Readonly<Record<string, string>> = {
  'database URL with wrong host to `neon()`': 'expects DNS to fail for a misspelt neon.tech host',
  'connection with Neon Authorize': "signs in through Clerk's API (api.clerk.com)",
  'client.query() with custom WebSocket proxy and subtls':
    "runs TLS in JavaScript against the real service's Let's Encrypt certificate",
};

/** The setup the runner adds to the driver's own: the driver pointed at serve. */
const SETUP = `import { neonConfig } from '@neondatabase/serverless';
const api = process.env['COMPUTESIM_API'];
neonConfig.fetchEndpoint = () => \`http://\${api}/sql\`;
neonConfig.wsProxy = (host, port) => \`\${api}/v2?address=\${host}:\${port}\`;
neonConfig.useSecureWebSocket = false;
neonConfig.pipelineTLS = false;
`;
const CONFIG = `import { defineConfig } from 'vite';
export default defineConfig({
  test: {
    fileParallelism: false,
    setupFiles: ['tests/setup.ts', 'tests/computesim.setup.ts'],
    testTimeout: 10000,
  },
});
`;

/** What a created project's answer gives the runner. */
interface CreatedProject {
  readonly connection_uris: readonly { readonly connection_uri: string }[];
  readonly endpoints: readonly { readonly host: string }[];
}

/** The direct and pooled URLs of a fresh project whose compute never suspends. */
async function freshProject(serve: ServeChild): Promise<{ direct: string; pooled: string }> {
  const answer = await serve.call('POST', '/projects', {
    project: { name: 'driver-suite', default_endpoint_settings: { suspend_timeout_seconds: -1 } },
  });
  const created = JSON.parse(answer.text) as CreatedProject;
  const uri = new URL(created.connection_uris[0]?.connection_uri ?? '');
  const host = created.endpoints[0]?.host ?? '';
  const [first, ...rest] = host.split('.');
  const pooledHost = [`${first}-pooler`, ...rest].join('.');
  const url = (at: string) =>
    `postgresql://${uri.username}:${uri.password}@${at}:${serve.pgPort}/neondb?sslmode=no-verify`;
  return { direct: url(host), pooled: url(pooledHost) };
}

/** Makes the compute's hosts resolve to the loopback (with `--hosts`), or says how. */
async function ensureResolves(hosts: readonly string[], add: boolean): Promise<boolean> {
  const missing: string[] = [];
  for (const host of hosts) {
    const found = await lookup(host).catch(() => undefined);
    if (found?.address !== '127.0.0.1') missing.push(host);
  }
  if (missing.length === 0) return true;
  const line = `127.0.0.1 ${missing.join(' ')}`;
  if (!add) {
    console.error(
      `node-postgres must reach the compute by name: add "${line}" to /etc/hosts, or pass --hosts as root`,
    );
    return false;
  }
  appendFileSync('/etc/hosts', `${line}\n`);
  return true;
}

interface VitestReport {
  readonly testResults: readonly {
    readonly assertionResults: readonly {
      readonly fullName: string;
      readonly title: string;
      readonly status: string;
    }[];
  }[];
}

async function main(): Promise<number> {
  const args = process.argv.slice(2);
  const checkout = args.find((arg, i) => !arg.startsWith('--') && args[i - 1] !== '--engine');
  const engine = args.includes('--engine') ? args[args.indexOf('--engine') + 1] : 'pglite';
  if (checkout === undefined || (engine !== 'pglite' && engine !== 'postgres')) {
    console.error(
      'usage: npx tsx scripts/serverlessDriverSuite.ts <driver checkout> [--engine pglite|postgres] [--hosts] [--write]',
    );
    return 2;
  }
  const serve = await startServeChild({ args: ['--pg-engine', engine] });
  const setup = join(checkout, 'tests', 'computesim.setup.ts');
  const config = join(checkout, 'tests', 'computesim.config.mts');
  const report = join(checkout, 'computesim-report.json');
  try {
    const urls = await freshProject(serve);
    const hosts = [new URL(urls.direct).hostname, new URL(urls.pooled).hostname];
    if (!(await ensureResolves(hosts, args.includes('--hosts')))) return 2;
    writeFileSync(setup, SETUP);
    writeFileSync(config, CONFIG);
    await new Promise<void>((resolve) => {
      const child = spawn(
        process.execPath,
        [
          join(checkout, 'node_modules', 'vitest', 'vitest.mjs'),
          ...[
            'run',
            '--dir=tests/cli',
            '--environment=node',
            '--config=tests/computesim.config.mts',
          ],
          ...['--reporter=default', '--reporter=json', `--outputFile=${report}`],
        ],
        {
          cwd: checkout,
          stdio: 'inherit',
          env: {
            ...process.env,
            COMPUTESIM_API: new URL(serve.origin).host,
            VITE_NEON_DB_URL: urls.direct,
            VITE_NEON_DB_POOLER_URL: urls.pooled,
          },
        },
      );
      child.on('exit', () => resolve());
    });
    const results = (JSON.parse(readFileSync(report, 'utf8')) as VitestReport).testResults.flatMap(
      (file) => file.assertionResults,
    );
    const passed = results.filter((r) => r.status === 'passed').map((r) => r.fullName);
    const failed = results.filter((r) => r.status !== 'passed');
    const local = failed.filter((r) => NOT_LOCAL[r.title] === undefined);
    console.log(`\n${passed.length} of ${results.length} tests passed`);
    for (const r of failed)
      console.log(
        `  ${NOT_LOCAL[r.title] === undefined ? 'FAILED' : 'not local'}  ${r.fullName}${NOT_LOCAL[r.title] === undefined ? '' : ` (${NOT_LOCAL[r.title]})`}`,
      );
    const before = new Set(
      readFileSync(PASSING_LIST, 'utf8')
        .split('\n')
        .filter((line) => line !== '' && !line.startsWith('#')),
    );
    const lost = results.filter((r) => r.status !== 'passed' && before.has(r.fullName));
    if (lost.length > 0)
      console.log(`passed before, failed now: ${lost.map((r) => r.fullName).join('; ')}`);
    if (args.includes('--write'))
      writeFileSync(
        PASSING_LIST,
        `# serverless driver tests that pass against computesim (scripts/serverlessDriverSuite.ts)\n${passed.join('\n')}\n`,
      );
    return lost.length > 0 || local.length > 0 ? 1 : 0;
  } finally {
    await serve.stop();
    for (const file of [setup, config, report]) rmSync(file, { force: true });
  }
}

process.exitCode = await main();
