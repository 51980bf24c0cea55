/**
 * `computesim serve`: the simulated API on a real HTTP server, for clients in any language. Prints
 * one line with the base URL and the key(s) it accepts, then serves until interrupted.
 */
import { spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Simulation } from '../../simulation/simulation.js';
import { PROFILE_NAMES, type ProfileName } from '../../simulation/simulationOptions.js';
import { fileUrl, loadDefinition } from '../../definitions/loadDefinition.js';
import { MissingPackageError } from '../../packages/optionalPackage.js';
import { parseClockMode, type ClockMode } from '../../service/clockMode.js';
import { apiKeyProblem } from '../../api/apiKey.js';
import { API_RATE_LIMITS } from '../../api/rateLimiter.js';
import { API_PREFIX } from '../../api/apiPrefix.js';
import {
  PG_ENGINES,
  SimServer,
  type PostgresEngine,
  type ServedKey,
} from '../../http/simServer.js';
import { StateFile } from '../../http/stateFile.js';
import { StateFileInUseError } from '../../http/stateFileLock.js';
import { LogFormatError } from '../../engine/errors.js';
import { runScenario } from '../../scenario/runScenario.js';
import { SCENARIO_FILE } from '../../scenario/scenario.js';
import { parseCommand, UsageError, wholeNumber } from '../args.js';
import type { CliIo } from '../io.js';

/** Help of the serve command. */
const SERVE_HELP = `Usage: computesim serve [options]

Serves the simulated API over HTTP at http://HOST:PORT/api/v2, the same routes and bodies as
in process, plus control routes under /api/v2/_sim/ (clock, step, advance, run_until_idle,
connections, snapshot, reset). Every request needs Authorization: Bearer KEY. A live dashboard is
at http://HOST:PORT/ (its URL with the key is printed on the second line). See docs/dashboard.md.

Options:
  --host HOST          interface to bind (default 127.0.0.1: this machine only)
  --port N             port (default 4242; 0 picks a free one)
  --api-key KEY        a key to accept (repeatable; default: one generated and printed)
  --clock MODE         manual (default: time moves only through /_sim/advance), realtime, or a
                       speed like 60x (a 5-second poll sees five minutes pass)
  --seed N             seed of a new simulation (default 1)
  --scenario FILE      play a scenario first and serve the world it leaves
  --state-file FILE    keep the simulation in FILE: each request's events are written (and
                       committed) before it is answered, and replayed on start; one server per
                       file (exit codes 3 and 4 below). See docs/durability.md
  --rate-limit         apply the real service's limits: 700 requests/min per key, 40/s per route
                       (429 with Retry-After)
  --open               open the dashboard in the default browser
  --profile NAME       profile of a new simulation: seed (default, the seed spec's values) or
                       current (the real service today: max_connections, free plan limits)
  --pg-port N          also serve the computes over the Postgres wire protocol on N (0 picks a
                       free one): connection URIs from the API point there, naming the compute
                       in options=endpoint%3D<id>; each branch database is an embedded Postgres.
                       TLS clients may name it by SNI instead (the compute's host, as neonctl's
                       URIs do: PGHOSTADDR=127.0.0.1 PGPORT=N psql "$(neonctl connection-string)")
  --pg-data DIR        where the branch databases live (default: FILE.pgdata beside
                       --state-file, kept across restarts; else a temporary folder removed at exit)
  --pg-engine NAME     what runs the branch databases: pglite (default: an embedded Postgres per
                       database, nothing to install; its clients take turns on one backend) or
                       postgres (a Postgres server per branch, each client on a backend of its
                       own: pools, cancels and other sessions as on a real compute; needs a
                       Postgres server's programs: apt-get install postgresql, or their folder
                       in COMPUTESIM_POSTGRES_BIN). See docs/postgres-engines.md
  --pg-max-open N      embedded Postgres instances open at once, at most (default 4; each takes
                       a few hundred MB; least recently used idle ones close first, never one a
                       client is connected to: see docs/security.md)
  --pg-tls-cert FILE   the front's TLS certificate (PEM; with --pg-tls-key); default: a
  --pg-tls-key FILE    self-signed one made at start for the endpoint hosts' domain

Exit codes:
  0  stopped by SIGINT or SIGTERM
  1  failed otherwise (a port in use, a scenario that failed)
  2  the command line was wrong
  3  the state file is damaged or cannot be read (docs/durability.md says what to do)
  4  the state file is in use by another live server: stop that one, or start again later (a
     server that has exited holds it no longer, even while its parent has not reaped it yet)

Examples:
  computesim serve --clock 60x --state-file sim.jsonl
  computesim serve --clock 60x --pg-port 5433   # then: psql "<connection_uri from the API>"`;

/** Runs the serve command; resolves when the server has stopped (SIGINT or SIGTERM). */
export async function serveCommand(argv: readonly string[], io: CliIo): Promise<number> {
  const { values, help } = parseCommand(
    argv,
    {
      host: { type: 'string' },
      port: { type: 'string' },
      'api-key': { type: 'string', multiple: true },
      clock: { type: 'string' },
      seed: { type: 'string' },
      scenario: { type: 'string' },
      'state-file': { type: 'string' },
      'rate-limit': { type: 'boolean' },
      open: { type: 'boolean' },
      profile: { type: 'string' },
      'pg-port': { type: 'string' },
      'pg-data': { type: 'string' },
      'pg-max-open': { type: 'string' },
      'pg-engine': { type: 'string' },
      'pg-tls-cert': { type: 'string' },
      'pg-tls-key': { type: 'string' },
    },
    0,
    'no arguments',
  );
  if (help) {
    io.out(SERVE_HELP);
    return 0;
  }
  const host = values.host ?? '127.0.0.1';
  if (host.trim() === '' || /\s/.test(host))
    throw new UsageError(`--host must be an interface name or address, got "${host}"`);
  const port = values.port === undefined ? 4242 : wholeNumber('--port', values.port, 0);
  if (port > 65_535) throw new UsageError(`--port must be at most 65535, got ${port}`);
  const clock = parseClockMode(values.clock ?? 'manual');
  if (!clock.ok) throw new UsageError(`--clock: ${clock.error}`);
  const seed = values.seed === undefined ? undefined : wholeNumber('--seed', values.seed);
  const given = values['api-key'] ?? [];
  const problem = given.map(apiKeyProblem).find((found) => found !== undefined);
  if (problem !== undefined) throw new UsageError(`--api-key: ${problem}`);
  const keys: ServedKey[] = (
    given.length > 0 ? given : [`csim_${randomBytes(16).toString('hex')}`]
  ).map((key) => ({ key, kind: 'personal' }));

  const pgPort =
    values['pg-port'] === undefined ? undefined : wholeNumber('--pg-port', values['pg-port'], 0);
  if (pgPort !== undefined && pgPort > 65_535)
    throw new UsageError(`--pg-port must be at most 65535, got ${pgPort}`);
  const pgMaxOpen =
    values['pg-max-open'] === undefined
      ? undefined
      : wholeNumber('--pg-max-open', values['pg-max-open'], 1);
  const pgEngine = values['pg-engine'];
  if (pgEngine !== undefined && !(PG_ENGINES as readonly string[]).includes(pgEngine))
    throw new UsageError(`--pg-engine must be one of ${PG_ENGINES.join(', ')}, got "${pgEngine}"`);
  if (pgEngine === 'postgres' && pgMaxOpen !== undefined)
    throw new UsageError('--pg-max-open goes with --pg-engine pglite (each server is a branch)');
  const certFile = values['pg-tls-cert'];
  const keyFile = values['pg-tls-key'];
  if (
    pgPort === undefined &&
    [values['pg-data'], pgMaxOpen, pgEngine, certFile, keyFile].some((value) => value !== undefined)
  )
    throw new UsageError(
      '--pg-data, --pg-engine, --pg-max-open and --pg-tls-cert/--pg-tls-key go with --pg-port',
    );
  if ((certFile === undefined) !== (keyFile === undefined))
    throw new UsageError('--pg-tls-cert and --pg-tls-key go together');
  const profile = values.profile;
  if (profile !== undefined && !(PROFILE_NAMES as readonly string[]).includes(profile))
    throw new UsageError(`--profile must be one of ${PROFILE_NAMES.join(', ')}, got "${profile}"`);
  const stateFilePath = values['state-file'];
  const stateFile = stateFilePath === undefined ? undefined : openState(stateFilePath, io);
  let server: SimServer;
  try {
    server = await simServer({
      keys,
      clock: clock.value,
      seed,
      scenario: values.scenario,
      stateFile,
      rateLimit: values['rate-limit'] === true,
      profile: profile as ProfileName | undefined,
      io,
    });
  } catch (error) {
    stateFile?.close(); // whatever failed before serving, the file is free again
    throw error;
  }
  let postgres = '';
  let temporaryData: string | undefined;
  /** Undoes what was started when serving fails: each step whatever became of the one before. */
  const cleanUp = async () => {
    await server.close().catch(() => undefined);
    stateFile?.close();
    if (temporaryData !== undefined) rmSync(temporaryData, { recursive: true, force: true });
  };
  if (pgPort !== undefined) {
    const root =
      values['pg-data'] ??
      (stateFilePath === undefined
        ? (temporaryData = mkdtempSync(join(tmpdir(), 'computesim-pgdata-')))
        : `${stateFilePath}.pgdata`);
    try {
      const address = await server.listenPostgres(pgPort, host, {
        root,
        ...(pgMaxOpen === undefined ? {} : { maxOpen: pgMaxOpen }),
        ...(pgEngine === undefined ? {} : { engine: pgEngine as PostgresEngine }),
        ...(certFile === undefined || keyFile === undefined ? {} : { tls: { certFile, keyFile } }),
        onError: (error) =>
          io.err(`postgres front: ${error instanceof Error ? error.message : String(error)}`),
        onLog: (line) => io.err(`postgres front: ${line}`),
      });
      postgres = ` · postgres ${address.host}:${address.port} (data in ${root})`;
    } catch (error) {
      await cleanUp();
      if (error instanceof MissingPackageError) throw error; // its own line says what to install
      const failure = error as NodeJS.ErrnoException;
      throw new Error(
        failure.syscall === 'listen'
          ? `cannot listen for Postgres on ${host}:${pgPort}: ${failure.code ?? String(error)}`
          : `cannot start the Postgres front: ${failure.message ?? String(error)}`,
        { cause: error },
      );
    }
  }
  // The API listens last: a client that waits for its port (a script, a CI service) finds every
  // other port listening too, and the connection URIs it is given point at them.
  let url: string;
  try {
    url = await server.listen(port, host);
  } catch (error) {
    await cleanUp();
    throw new Error(
      `cannot listen on ${host}:${port}: ${(error as NodeJS.ErrnoException).code ?? String(error)}`,
      { cause: error },
    );
  }
  io.out(
    `computesim serving ${url} · key ${keys.map((k) => k.key).join(', ')} · clock ${clock.value.name} · seed ${server.sim.seed}${postgres}`,
  );
  const dashboard = `${url.slice(0, -API_PREFIX.length)}/#key=${encodeURIComponent(keys[0]?.key ?? '')}`;
  io.out(`dashboard ${dashboard}`);
  if (values.open === true) openInBrowser(dashboard, io);
  await new Promise<void>((resolve) => {
    const stop = () => {
      process.off('SIGINT', stop).off('SIGTERM', stop);
      void server
        .close()
        .then(() => {
          if (temporaryData !== undefined) rmSync(temporaryData, { recursive: true, force: true });
        })
        .then(resolve);
    };
    process.once('SIGINT', stop).once('SIGTERM', stop);
  });
  return 0;
}

/** Opens `url` with the platform's opener; says so on stderr if there is none. */
function openInBrowser(url: string, io: CliIo): void {
  const [command, ...args] =
    process.platform === 'darwin'
      ? ['open', url]
      : process.platform === 'win32'
        ? ['cmd', '/c', 'start', '', url]
        : ['xdg-open', url];
  const child = spawn(command, args, { stdio: 'ignore', detached: true });
  child.on('error', () => io.err(`computesim: cannot open a browser here; open ${url}`));
  child.unref();
}

/** What `serve` was asked for, checked. */
interface ServeSettings {
  readonly keys: readonly ServedKey[];
  readonly clock: ClockMode;
  readonly seed: number | undefined;
  readonly scenario: string | undefined;
  readonly stateFile: StateFile | undefined;
  readonly rateLimit: boolean;
  readonly profile: ProfileName | undefined;
  readonly io: CliIo;
}

/**
 * Builds the simulation to serve (the state file's, a scenario's, or a new one) and the server
 * that serves it, not listening yet.
 */
async function simServer(settings: ServeSettings): Promise<SimServer> {
  const { stateFile, scenario: scenarioFile, seed, io, profile } = settings;
  let sim = stateFile?.simulation;
  if (profile !== undefined && (sim !== undefined || scenarioFile !== undefined))
    throw new UsageError(
      '--profile applies to a new simulation: a scenario or a state file brings its own profile',
    );
  if (sim !== undefined && (scenarioFile !== undefined || seed !== undefined))
    throw new UsageError(
      `--state-file ${stateFile?.path} already holds a simulation: drop --scenario/--seed, or use a new file`,
    );
  if (sim === undefined && scenarioFile !== undefined) {
    const scenario = await loadDefinition(fileUrl(scenarioFile), SCENARIO_FILE);
    const run = runScenario(scenario, seed === undefined ? {} : { seed });
    if (run.failure !== undefined)
      throw new Error(`scenario ${run.name} failed: ${run.failure.message}`);
    sim = run.sim;
  }
  sim ??= new Simulation({ seed: seed ?? 1, ...(profile === undefined ? {} : { profile }) });
  const server = new SimServer(sim, {
    keys: settings.keys,
    clock: settings.clock,
    ...(settings.rateLimit ? { rateLimits: API_RATE_LIMITS } : {}),
    onInternalError: (error) =>
      io.err(
        `internal error: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}`,
      ),
    ...(stateFile === undefined ? {} : { stateFile }),
  });
  return server;
}

/**
 * Opens (and locks) the state file, saying on stderr what recovery did. A file in use (exit code 4),
 * or damaged or unreadable (exit code 3), is a one-line error.
 */
function openState(path: string, io: CliIo): StateFile {
  let file: StateFile;
  try {
    file = StateFile.open(path);
  } catch (error) {
    if (error instanceof StateFileInUseError) throw new StateFileInUse(error.message);
    if (error instanceof LogFormatError)
      throw new StateFileRefused(`${path} cannot be loaded: ${error.message}`);
    const code = (error as NodeJS.ErrnoException).code;
    if (code !== undefined) throw new StateFileRefused(`cannot open ${path}: ${code}`);
    throw error;
  }
  const { dropped, addedNewline, converted, staleLockOf, unlockedIdentity } = file.recovery;
  if (staleLockOf !== undefined)
    io.err(`computesim: ${path}: took over the lock left by process ${staleLockOf}, which is gone`);
  if (unlockedIdentity !== undefined)
    io.err(
      `computesim: warning: ${path}: ${unlockedIdentity}: a second server reaching it by a hard link would not be refused`,
    );
  if (dropped !== undefined)
    io.err(
      `computesim: warning: ${path}${dropped.fromLine > 0 ? ` lines ${dropped.fromLine}-${dropped.toLine}` : ''}: ${dropped.reason} ` +
        `(${dropped.events} events, ${dropped.bytes} bytes cut off)`,
    );
  if (addedNewline === true)
    io.err(
      `computesim: ${path}: its last commit line had lost its newline: added it (that request is whole; nothing was dropped)`,
    );
  if (converted === true)
    io.err(
      `computesim: ${path} was a plain event log; rewrote it as a state file (commit lines added)`,
    );
  return file;
}

/** The state file cannot be served (damaged, unreadable): exit code 3. */
class StateFileRefused extends Error {
  override readonly name = 'StateFileRefused';
  readonly exitCode = 3;
}

/**
 * The state file is in use by another live server: exit code 4, apart from a damaged file's 3, so
 * that a supervisor can tell "wait, or stop the other server" from "repair the file".
 */
class StateFileInUse extends Error {
  override readonly name = 'StateFileInUse';
  readonly exitCode = 4;
}
