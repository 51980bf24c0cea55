/**
 * Options the study commands (`compare`, `sweep`) share: the study file, seeds, span, workers and
 * parameter values, parsed into what the study API takes.
 */
import type { Duration } from '../core/duration.js';
import { fileUrl, loadDefinition } from '../definitions/loadDefinition.js';
import { sweepStudyFile } from '../study/sweep.js';
import type { SweepOptions } from '../study/sweepPlan.js';
import type { SweepResult } from '../study/sweepResult.js';
import { STUDY_FILE, type ParamValue, type StudyDefinition } from '../study/study.js';
import { durationOption, UsageError, wholeNumber } from './args.js';
import type { CliIo } from './io.js';
import { progressBar } from './progressBar.js';

/** Flags every study command takes. */
export const STUDY_FLAGS = {
  duration: { type: 'string' },
  workers: { type: 'string' },
  json: { type: 'string' },
} as const;

/** A study file loaded for a command, with the span its runs will last. */
export interface LoadedStudy {
  readonly file: string;
  readonly study: StudyDefinition<unknown>;
  readonly duration: Duration;
}

/** Loads the study file a command names, and its span (`--duration`, else the study's). */
export async function loadStudyFile(
  file: string,
  flags: { readonly duration?: string | undefined },
): Promise<LoadedStudy> {
  const study = await loadDefinition(fileUrl(file), STUDY_FILE);
  const duration =
    flags.duration === undefined ? study.duration : durationOption('--duration', flags.duration);
  return { file, study, duration };
}

/** Runs a loaded study's sweep on worker threads (`--workers`), with a bar on a terminal. */
export async function runStudyFile(
  loaded: LoadedStudy,
  plan: Pick<SweepOptions, 'grid' | 'seeds'>,
  flags: { readonly workers?: string | undefined },
  io: CliIo,
  label: string,
): Promise<SweepResult> {
  const workers =
    flags.workers === undefined ? {} : { workers: wholeNumber('--workers', flags.workers, 1) };
  const progress = progressBar(label, io.progressStream, 'runs');
  try {
    return await sweepStudyFile(loaded.file, {
      ...plan,
      duration: loaded.duration,
      ...workers,
      onProgress: (done, total) => progress.update(done, total),
    });
  } finally {
    progress.stop();
  }
}

/** Seeds from `--seeds`: a count (`5`: the study's seed and the next four) or a list (`1,7,9`). */
export function parseSeeds(text: string, firstSeed: number): number[] {
  if (!text.includes(',')) {
    const count = wholeNumber('--seeds', text, 1);
    return Array.from({ length: count }, (_, i) => firstSeed + i);
  }
  const seeds = text.split(',').map((part) => wholeNumber('--seeds', part.trim()));
  if (new Set(seeds).size !== seeds.length) throw new UsageError('--seeds must not repeat a seed');
  return seeds;
}

/** Grid values from `--param name=v1,v2` flags (numbers, true/false, else strings). */
export function parseParams(flags: readonly string[]): Record<string, ParamValue[]> {
  const grid: Record<string, ParamValue[]> = {};
  for (const flag of flags) {
    const at = flag.indexOf('=');
    const name = at === -1 ? '' : flag.slice(0, at).trim();
    if (name === '' || at === flag.length - 1)
      throw new UsageError(`--param wants name=value[,value…], got "${flag}"`);
    if (name in grid) throw new UsageError(`--param ${name} given twice`);
    grid[name] = flag
      .slice(at + 1)
      .split(',')
      .map((value) => paramValue(value.trim()));
  }
  return grid;
}

function paramValue(text: string): ParamValue {
  if (text === 'true') return true;
  if (text === 'false') return false;
  const number = Number(text);
  return text !== '' && Number.isFinite(number) ? number : text;
}
