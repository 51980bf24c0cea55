/**
 * The settings a client asks for in its startup message, as Postgres applies them: every parameter
 * but `user`, `database`, `options` and `replication` names a setting (`application_name`,
 * `DateStyle`, …), and `options` holds command-line switches: `-c name=value` (or `-cname=value`,
 * `--name=value`), words separated by spaces, a backslash keeping the next character. The front's
 * own `endpoint=`/`project=` words are not settings.
 */

const NOT_SETTINGS = new Set(['user', 'database', 'options', 'replication']);
const ROUTING = new Set(['endpoint', 'project']);

/** The settings of a startup message, in the order given (later ones win). */
export function startupSettings(parameters: Readonly<Record<string, string>>): Map<string, string> {
  const settings = new Map<string, string>();
  for (const [name, value] of Object.entries(parameters))
    if (!NOT_SETTINGS.has(name)) settings.set(name, value);
  const words = optionWords(parameters['options'] ?? '');
  for (let i = 0; i < words.length; i++) {
    const word = words[i] as string;
    let pair: string | undefined;
    if (word === '-c') pair = words[++i];
    else if (word.startsWith('-c')) pair = word.slice(2);
    else if (word.startsWith('--')) pair = word.slice(2);
    if (pair === undefined) continue;
    const eq = pair.indexOf('=');
    if (eq <= 0) continue;
    const name = pair.slice(0, eq).replaceAll('-', '_');
    if (!ROUTING.has(name)) settings.set(name, pair.slice(eq + 1));
  }
  return settings;
}

/** `options` split into words: spaces separate, a backslash keeps the character after it. */
function optionWords(options: string): string[] {
  const words: string[] = [];
  let word = '';
  let has = false;
  for (let i = 0; i < options.length; i++) {
    const char = options[i] as string;
    if (char === '\\' && i + 1 < options.length) {
      word += options[++i];
      has = true;
    } else if (/\s/.test(char)) {
      if (has) words.push(word);
      word = '';
      has = false;
    } else {
      word += char;
      has = true;
    }
  }
  if (has) words.push(word);
  return words;
}

/** Settings a server reports to the client when they change, with the values a startup asked for. */
const REPORTED_SETTINGS = [
  'application_name',
  'client_encoding',
  'DateStyle',
  'IntervalStyle',
  'TimeZone',
];

/** The reported settings among a startup's (`application_name` always, empty by default). */
export function reported(settings: ReadonlyMap<string, string>): Record<string, string> {
  const found: Record<string, string> = { application_name: '' };
  for (const [name, value] of settings) {
    const known = REPORTED_SETTINGS.find((setting) => setting.toLowerCase() === name.toLowerCase());
    if (known !== undefined) found[known] = value;
  }
  return found;
}
