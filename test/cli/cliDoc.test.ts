/**
 * docs/cli.md stays the whole reference of the command line: every command the CLI's help lists is
 * shown there, and every option a command's own `--help` lists is named there, so an option added
 * to a command and its help fails here until the reference says it too.
 */
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { runCli } from '../support/runCli.js';

const reference = readFileSync(new URL('../../docs/cli.md', import.meta.url), 'utf8');

/** The `--options` a help text names (`--help` itself aside). */
function optionsIn(help: string): string[] {
  return [...new Set(help.match(/--[a-z][a-z-]*/g) ?? [])].filter((option) => option !== '--help');
}

describe('docs/cli.md', () => {
  it('shows every command, and every option each command’s help lists', async () => {
    const usage = (await runCli(['--help'])).out.join('\n');
    const commands = [
      ...new Set([...usage.matchAll(/^ {2}([a-z]+) /gm)].map((match) => match[1] as string)),
    ];
    expect(commands).toEqual(
      expect.arrayContaining(['demo', 'run', 'replay', 'compare', 'sweep', 'serve']),
    );
    const missing: string[] = [];
    for (const command of commands) {
      if (!reference.includes(`computesim ${command}`)) missing.push(command);
      const help = (await runCli([command, '--help'])).out.join('\n');
      expect(help, command).toMatch(/^Usage: computesim /);
      for (const option of optionsIn(help))
        if (!new RegExp(`${option}(?![a-z-])`).test(reference))
          missing.push(`${command} ${option}`);
    }
    expect(missing).toEqual([]);
  }, 60_000);
});
