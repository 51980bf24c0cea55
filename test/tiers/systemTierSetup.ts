/**
 * Global set-up of `npm run test:system`: under CI=true a missing program fails the run at once,
 * naming its Debian package; elsewhere its tests skip, and the run ends with one line naming what
 * was skipped and how to install it.
 */
import { SYSTEM_PROGRAMS, missingPrograms } from '../support/systemPrograms.js';

const install = (programs: readonly (keyof typeof SYSTEM_PROGRAMS)[]) =>
  `apt-get install ${programs.map((program) => SYSTEM_PROGRAMS[program]).join(' ')}`;

/** Fails under CI when a program is missing; otherwise returns the summary printed at the end. */
export default function setup(): () => void {
  const missing = missingPrograms();
  if (missing.length > 0 && process.env['CI'] === 'true')
    throw new Error(
      `the system tier needs ${missing.join(', ')} under CI=true: ${install(missing)}`,
    );
  return () => {
    console.log(
      missing.length === 0
        ? '\nsystem tier: nothing skipped'
        : `\nsystem tier: skipped the tests that need ${missing.join(', ')} (${install(missing)})`,
    );
  };
}
