/**
 * Global set-up of `npm test` (the tier that needs nothing but Node and npm packages): after the
 * run, one line naming the system tier it left out and, where this machine lacks a program that
 * tier runs, the Debian package that brings it.
 */
import { SYSTEM_PROGRAMS, missingPrograms } from '../support/systemPrograms.js';
import { systemTestFiles } from './systemTests.js';

/** Prints the line about the system tier once the run is over. */
export default function setup(): () => void {
  return () => {
    const files = systemTestFiles().length;
    const missing = missingPrograms();
    const needs =
      missing.length === 0
        ? 'every program it runs is installed'
        : `missing here: ${missing.map((program) => `${program} (apt-get install ${SYSTEM_PROGRAMS[program]})`).join(', ')}`;
    console.log(`\nnot run here: the system tier, ${files} files (npm run test:system; ${needs})`);
  };
}
