/**
 * Runs node-postgres's own integration suite against `computesim serve --pg-port`, as a measure
 * of the Postgres front no one here wrote: each test file on a fresh project (its compute never
 * suspends, so a client idle between tests is not dropped), through the environment variables
 * node-postgres reads (PGHOST, PGPORT, PGUSER, PGPASSWORD, PGDATABASE, and PGOPTIONS naming the
 * compute). Prints each file's outcome, the totals, and what changed against the list of files
 * that passed before (`nodePostgresSuite.<route>.txt`); `--write` records this run's list there.
 *
 * `--route options` (the default) names the compute in PGOPTIONS, as the API's URIs do, and the
 * password goes by SCRAM; a test that sets `options` itself then names no compute. `--route
 * password` names it in the password (`endpoint=<id>;<password>`) over TLS, the real service's
 * way for clients that cannot send SNI, which leaves `options` to the tests.
 *
 * The suite is not part of this repository: give the path of a node-postgres checkout whose
 * dependencies are installed and built (`npm install && npx tsc --build` at its root).
 *
 * `--engine postgres` runs serve with `--pg-engine postgres` (a backend per client; lists
 * `nodePostgresSuite.postgres-<route>.txt`); the default is PGlite.
 *
 * Run: npx tsx scripts/nodePostgresSuite.ts <node-postgres checkout> [--route options|password]
 *        [--engine pglite|postgres] [--only <file>] [--write]
 */
import { spawn } from 'node:child_process';
import { readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { startServeChild, type ServeChild } from '../benchmarks/support/serveChild.js';

/** Where the files a route passed on an engine are listed. */
const passingList = (engine: Engine, route: Route) =>
  fileURLToPath(
    new URL(
      `nodePostgresSuite.${engine === 'pglite' ? '' : `${engine}-`}${route}.txt`,
      import.meta.url,
    ),
  );

/** What runs the databases (serve's `--pg-engine`). */
type Engine = 'pglite' | 'postgres';

/** How a test file's clients name their compute (see the header). */
type Route = 'options' | 'password';
/** How long one test file may run before it counts as failed. */
const FILE_TIMEOUT_MS = 120_000;

interface Outcome {
  readonly file: string;
  readonly passed: boolean;
  readonly seconds: number;
  /** The last lines it printed, when it failed. */
  readonly tail: string;
}

function testFiles(dir: string): string[] {
  return readdirSync(dir)
    .flatMap((name) => {
      const path = join(dir, name);
      if (statSync(path).isDirectory()) return testFiles(path);
      return name.endsWith('-tests.js') ? [path] : [];
    })
    .sort();
}

/** What a created project's answer gives the runner. */
interface CreatedProject {
  readonly connection_uris: readonly { readonly connection_uri: string }[];
  readonly endpoints: readonly { readonly id: string }[];
}

/** The environment that points node-postgres at a fresh project's compute. */
async function freshProject(
  serve: ServeChild,
  name: string,
  route: Route,
): Promise<NodeJS.ProcessEnv> {
  const answer = await serve.call('POST', '/projects', {
    project: { name, default_endpoint_settings: { suspend_timeout_seconds: -1 } },
  });
  const created = JSON.parse(answer.text) as CreatedProject;
  const uri = new URL(created.connection_uris[0]?.connection_uri ?? '');
  const endpointId = created.endpoints[0]?.id;
  if (endpointId === undefined) throw new Error('the project was created without a compute');
  const place = {
    PGHOST: '127.0.0.1',
    PGPORT: String(serve.pgPort),
    PGUSER: decodeURIComponent(uri.username),
    PGDATABASE: 'neondb',
  };
  const password = decodeURIComponent(uri.password);
  return route === 'options'
    ? { ...place, PGPASSWORD: password, PGOPTIONS: `endpoint=${endpointId}`, PGSSLMODE: 'disable' }
    : { ...place, PGPASSWORD: `endpoint=${endpointId};${password}`, PGSSLMODE: 'no-verify' };
}

function runFile(file: string, cwd: string, env: NodeJS.ProcessEnv): Promise<Outcome> {
  const started = Date.now();
  return new Promise((resolve) => {
    const child = spawn(process.execPath, [file], {
      cwd,
      env: { ...process.env, ...env },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let output = '';
    const take = (chunk: Buffer) => {
      output = (output + chunk.toString()).slice(-4_000);
    };
    child.stdout.on('data', take);
    child.stderr.on('data', take);
    const timer = setTimeout(() => {
      output += `\n(stopped after ${FILE_TIMEOUT_MS / 1000} s)`;
      child.kill('SIGKILL');
    }, FILE_TIMEOUT_MS);
    child.on('exit', (code) => {
      clearTimeout(timer);
      const tail = output.trim().split('\n').slice(-6).join('\n');
      resolve({
        file: relative(cwd, file),
        passed: code === 0,
        seconds: (Date.now() - started) / 1000,
        tail,
      });
    });
  });
}

async function main(): Promise<number> {
  const args = process.argv.slice(2);
  const checkout = args.find(
    (arg, i) =>
      !arg.startsWith('--') && !['--only', '--route', '--engine'].includes(args[i - 1] ?? ''),
  );
  if (checkout === undefined) {
    console.error(
      'usage: npx tsx scripts/nodePostgresSuite.ts <node-postgres checkout> [--route options|password] [--engine pglite|postgres] [--only <file>] [--write]',
    );
    return 2;
  }
  const only = args.includes('--only') ? args[args.indexOf('--only') + 1] : undefined;
  const route = (args.includes('--route') ? args[args.indexOf('--route') + 1] : 'options') as Route;
  if (route !== 'options' && route !== 'password') {
    console.error(`--route must be options or password, got ${String(route)}`);
    return 2;
  }
  const engine = (
    args.includes('--engine') ? args[args.indexOf('--engine') + 1] : 'pglite'
  ) as Engine;
  if (engine !== 'pglite' && engine !== 'postgres') {
    console.error(`--engine must be pglite or postgres, got ${String(engine)}`);
    return 2;
  }
  const pgDir = join(checkout, 'packages', 'pg');
  const files = testFiles(join(pgDir, 'test', 'integration')).filter(
    (file) => only === undefined || file.endsWith(only),
  );
  const serve = await startServeChild({ args: ['--pg-engine', engine] });
  const outcomes: Outcome[] = [];
  try {
    for (const [index, file] of files.entries()) {
      const env = await freshProject(serve, `suite-${index}`, route);
      const outcome = await runFile(file, pgDir, env);
      outcomes.push(outcome);
      console.log(
        `${outcome.passed ? 'pass' : 'FAIL'}  ${outcome.file}  ${outcome.seconds.toFixed(1)} s`,
      );
      if (!outcome.passed) console.log(outcome.tail.replace(/^/gm, '      '));
    }
  } finally {
    await serve.stop();
  }
  const passed = outcomes.filter((o) => o.passed).map((o) => o.file);
  console.log(`\n${passed.length} of ${outcomes.length} files passed`);
  const before = new Set(
    readFileSync(passingList(engine, route), { encoding: 'utf8', flag: 'a+' })
      .split('\n')
      .filter((line) => line !== '' && !line.startsWith('#')),
  );
  const lost = outcomes.filter((o) => !o.passed && before.has(o.file)).map((o) => o.file);
  const gained = passed.filter((file) => !before.has(file));
  if (lost.length > 0) console.log(`passed before, failed now: ${lost.join(', ')}`);
  if (gained.length > 0) console.log(`passed now, not before: ${gained.join(', ')}`);
  if (args.includes('--write') && only === undefined)
    writeFileSync(
      passingList(engine, route),
      `# node-postgres integration files that pass against computesim (scripts/nodePostgresSuite.ts)\n${passed.join('\n')}\n`,
    );
  return lost.length > 0 ? 1 : 0;
}

process.exitCode = await main();
