/**
 * A vitest reporter for the system tier: after the run, one line per suite that skipped because a
 * program was missing, naming its file and the reason its title carries (see `describeWith`).
 */
import { relative } from 'node:path';
import type { Reporter, TestModule } from 'vitest/node';

/** Prints each skipped suite's file and reason once the run is over. */
export default class SkipReasons implements Reporter {
  onTestRunEnd(modules: readonly TestModule[]): void {
    const lines: string[] = [];
    for (const module of modules)
      for (const suite of module.children.allSuites()) {
        const reason = /\[skipped: (.+)\]$/.exec(suite.name)?.[1];
        if (reason !== undefined)
          lines.push(`skipped ${relative(process.cwd(), module.moduleId)}: ${reason}`);
      }
    if (lines.length > 0) console.log(`\n${lines.join('\n')}`);
  }
}
