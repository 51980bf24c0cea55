/**
 * Logs that do not live in memory: a log streamed to a sink (a file) replays to the same state and
 * holds the same events as the in-memory log of the same run; a run that keeps no log reaches the
 * same state; what needs the events is a clear error, never a wrong answer.
 */
import fc from 'fast-check';
import { mkdtempSync, readFileSync, statSync, truncateSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import {
  LogFile,
  LogFileSink,
  LogUnavailableError,
  Simulation,
  metricsOf,
} from '../../src/index.js';
import { type LogKeeping, type LogSink } from '../../src/entries/model.js';
import { addBusyProjects } from '../support/busyProjects.js';
import { runCli } from '../support/runCli.js';
import { runScript, scriptArb } from '../support/scripts.js';

/** A sink that keeps the bytes it was given, as a file would. */
class MemorySink implements LogSink {
  readonly chunks: Uint8Array[] = [];
  closed = false;
  write(bytes: Uint8Array): void {
    this.chunks.push(bytes.slice());
  }
  close(): void {
    this.closed = true;
  }
  bytes(): Buffer {
    return Buffer.concat(this.chunks);
  }
}

const dir = mkdtempSync(join(tmpdir(), 'computesim-log-'));
let files = 0;
const tempFile = (name: string) => join(dir, `${files++}-${name}`);

/** Busy projects run for `hours` with the log kept as `log` says. */
function fleetRun(seed: number, projects: number, hours: number, log: LogKeeping): Simulation {
  const sim = new Simulation({ seed, log });
  addBusyProjects(sim, projects);
  sim.advance(`${hours}h`);
  return sim;
}

const fileLines = (path: string) => [...LogFile.open(path).events()].map((e) => JSON.stringify(e));

describe('a streamed log', () => {
  it('holds the events of the in-memory log, and replays to the same state (property)', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 0, max: 1_000 }),
        fc.integer({ min: 1, max: 4 }),
        fc.integer({ min: 1, max: 30 }),
        (seed, projects, hours) => {
          const inMemory = fleetRun(seed, projects, hours, 'memory');
          const path = tempFile('run.csimlog');
          const streamed = fleetRun(seed, projects, hours, LogFileSink.create(path));
          streamed.log.close();
          expect(streamed.log.length).toBe(inMemory.log.length);
          expect(fileLines(path)).toEqual(inMemory.toJSONL().trimEnd().split('\n'));
          const replayed = Simulation.replay(LogFile.open(path).events());
          expect(replayed.state).toEqual(inMemory.state);
          expect(replayed.now()).toBe(inMemory.now());
          expect(metricsOf(LogFile.open(path).events())).toEqual(metricsOf(inMemory.log));
        },
      ),
      { numRuns: 15 },
    );
  });

  it('streams scripts of requests, deletions and recoveries the same way (property)', () => {
    fc.assert(
      fc.property(fc.integer(), scriptArb(), (seed, script) => {
        const inMemory = new Simulation({ seed });
        runScript(inMemory, script);
        const sink = new MemorySink();
        const streamed = new Simulation({ seed, log: sink });
        runScript(streamed, script);
        streamed.log.close();
        expect(sink.closed).toBe(true);
        const path = tempFile('script.csimlog');
        writeFileSync(path, sink.bytes());
        expect(fileLines(path)).toEqual(inMemory.toJSONL().trimEnd().split('\n'));
      }),
      { numRuns: 40 },
    );
  });

  it('keeps memory flat: the process holds at most one frame of it', () => {
    const path = tempFile('long.csimlog');
    const sink = LogFileSink.create(path);
    const sim = fleetRun(7, 20, 72, sink);
    expect(sim.log.footprint.bytes).toBe(0);
    sim.log.flush();
    expect(statSync(path).size).toBe(sink.bytesWritten);
    sim.log.close();
    expect(LogFile.open(path).scan).toMatchObject({ kind: 'stream', keptEvents: sim.log.length });
  });

  it('after a crash mid-write replays its whole frames and says what it left out', () => {
    const path = tempFile('torn.csimlog');
    const sim = fleetRun(3, 10, 1, LogFileSink.create(path));
    for (let hour = 0; hour < 24; hour++) {
      sim.advance('1h');
      sim.log.flush(); // a frame an hour
    }
    sim.log.close();
    const size = statSync(path).size;
    truncateSync(path, size - 100);
    const file = LogFile.open(path);
    expect(file.scan.dropped?.reason).toMatch(/last frame is torn.*after byte/);
    expect(file.scan.keptEvents).toBeLessThan(sim.log.length);
    const replayed = Simulation.replay(file.events());
    expect(replayed.log.length).toBe(file.scan.keptEvents);
  });

  it('is read by computesim replay like a JSON Lines log', async () => {
    const path = tempFile('cli.csimlog');
    const sim = fleetRun(11, 2, 3, LogFileSink.create(path));
    sim.log.close();
    const jsonl = tempFile('cli.jsonl');
    writeFileSync(jsonl, fleetRun(11, 2, 3, 'memory').toJSONL());
    const narrate = (file: string) => runCli(['replay', file, '--at', '+2h']);
    const fromStream = await narrate(path);
    expect(fromStream.code).toBe(0);
    expect(fromStream.out).toEqual((await narrate(jsonl)).out);
    expect(fromStream.out.join('\n')).toMatch(/state at/);
  });

  it('refuses to be appended to once closed, and says a garbled file is not a log', () => {
    const sim = new Simulation({ log: new MemorySink() });
    sim.log.close();
    expect(sim.request('POST', '/projects', { project: {} }).body.message).toMatch(
      /log was closed/,
    );
    expect(() => sim.advance('1h')).toThrow(/log was closed/);
    const path = tempFile('garbled.csimlog');
    writeFileSync(
      path,
      Buffer.concat([Buffer.from('computesim-log/1\n'), Buffer.from([9, 1, 0, 0, 0, 0])]),
    );
    expect(() => LogFile.open(path)).toThrow(/unknown frame kind 9/);
    expect(readFileSync(path).length).toBe(23);
  });
});

describe('a sink that fails', () => {
  it('stops the run with a clear error, leaves the state in step with the log, and refuses what follows', () => {
    let writes = 0;
    const failing: LogSink = {
      write: () => {
        if (++writes > 1) throw new Error('ENOSPC: no space left on device');
      },
    };
    const streamed = new Simulation({ seed: 4, log: failing });
    const inMemory = new Simulation({ seed: 4 });
    for (const sim of [streamed, inMemory]) addBusyProjects(sim, 20);
    inMemory.advance('5d');
    expect(() => streamed.advance('5d')).toThrow(/writing the streamed log failed .*ENOSPC/);
    // The failing frame came mid-advance: the advance went on, in step with its own log.
    expect(streamed.state).toEqual(inMemory.state);
    expect(streamed.log.length).toBe(inMemory.log.length);
    const { length } = streamed.log;
    const now = streamed.now();
    expect(() => streamed.advance('1h')).toThrow(LogUnavailableError);
    expect(streamed.request('POST', '/projects', { project: {} }).body.message).toMatch(/ENOSPC/);
    expect(() => streamed.log.flush()).toThrow(/ENOSPC/);
    expect(streamed.log.length).toBe(length);
    expect(streamed.now()).toBe(now);
  });
});

describe('a run that keeps no log', () => {
  it('reaches the same state as one that keeps it, with the same count (property)', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 0, max: 1_000 }),
        fc.integer({ min: 1, max: 3 }),
        fc.integer({ min: 1, max: 24 }),
        (seed, projects, hours) => {
          const kept = fleetRun(seed, projects, hours, 'memory');
          const none = fleetRun(seed, projects, hours, 'none');
          expect(none.log.length).toBe(kept.log.length);
          expect(none.log.lastAt).toBe(kept.log.lastAt);
          expect(none.state).toEqual(kept.state);
        },
      ),
      { numRuns: 10 },
    );
  });

  it('answers for now, and says clearly that the past needs the log', () => {
    const sim = fleetRun(1, 2, 5, 'none');
    expect(sim.stateAt(sim.now())).toBe(sim.state);
    expect(sim.log.header?.type).toBe('SimulationStarted');
    expect(sim.log.get(0)?.type).toBe('SimulationStarted');
    expect(() => sim.stateAt(sim.now() - 3_600_000)).toThrow(LogUnavailableError);
    expect(() => sim.stateAt(sim.now() - 3_600_000)).toThrow(/keeps no log in memory/);
    expect(() => [...sim.log]).toThrow(/keeps none/);
    expect(() => sim.log.get(5)).toThrow(LogUnavailableError);
    expect(() => sim.toJSONL()).toThrow(LogUnavailableError);
  });
});
