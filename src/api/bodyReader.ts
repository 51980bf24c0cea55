/**
 * Reading request bodies defensively: any JSON value may arrive. Each read checks one field and
 * remembers the first problem with the field's full path, so a handler reads everything it needs and
 * then answers 400 with a message that names the field.
 */
import { reject, type Rejection } from '../domain/rejection.js';

/** A JSON object as a record, or `undefined` for any other value. */
function asObject(value: unknown): Record<string, unknown> | undefined {
  return typeof value === 'object' && value !== null && !Array.isArray(value)
    ? (value as Record<string, unknown>)
    : undefined;
}

/** Where the readers of one body record the first problem they find. */
interface ProblemSink {
  problem?: Rejection;
}

/** Typed, optional reads from one JSON object, collecting the first problem. */
export class BodyReader {
  readonly #sink: ProblemSink;

  constructor(
    readonly object: Record<string, unknown>,
    readonly path: string,
    sink: ProblemSink = {},
  ) {
    this.#sink = sink;
  }

  /** A reader for the body's top-level object (an absent body reads as `{}`). */
  static ofBody(body: unknown): BodyReader {
    if (body === undefined || body === null) return new BodyReader({}, 'body');
    const object = asObject(body);
    const reader = new BodyReader(object ?? {}, 'body');
    if (object === undefined) reader.fail('request body must be a JSON object');
    return reader;
  }

  /** The first problem found by this reader or any reader of the same body. */
  get problem(): Rejection | undefined {
    return this.#sink.problem;
  }

  /** Records a problem (the first one wins). */
  fail(message: string): void {
    this.#sink.problem ??= reject('invalid_input', message);
  }

  /** A nested object field as a reader of its own (absent: an empty one); problems are shared. */
  object_(key: string): BodyReader {
    const value = this.object[key];
    const path = this.#at(key);
    if (value === undefined || value === null) return this.#child({}, path);
    const object = asObject(value);
    if (object === undefined) this.fail(`${path} must be an object`);
    return this.#child(object ?? {}, path);
  }

  /** An array of objects, each as a reader. */
  objects(key: string): BodyReader[] {
    const value = this.object[key];
    if (value === undefined || value === null) return [];
    if (!Array.isArray(value)) {
      this.fail(`${this.#at(key)} must be an array`);
      return [];
    }
    return value.map((item, i) => {
      const object = asObject(item);
      if (object === undefined) this.fail(`${this.#at(key)}[${i}] must be an object`);
      return this.#child(object ?? {}, `${this.#at(key)}[${i}]`);
    });
  }

  /** A string matching `pattern`. */
  string(key: string, pattern: RegExp, hint: string): string | undefined {
    const value = this.object[key];
    if (value === undefined) return undefined;
    if (typeof value !== 'string' || !pattern.test(value)) {
      this.fail(`${this.#at(key)} must be ${hint}`);
      return undefined;
    }
    return value;
  }

  /** One of a fixed list of strings. */
  oneOf<T extends string>(key: string, allowed: readonly T[]): T | undefined {
    const value = this.object[key];
    if (value === undefined) return undefined;
    if (typeof value !== 'string' || !(allowed as readonly string[]).includes(value)) {
      this.fail(`${this.#at(key)} must be one of ${allowed.join(', ')}`);
      return undefined;
    }
    return value as T;
  }

  /** A finite number (whole when `integer`). */
  number(key: string, integer = false): number | undefined {
    const value = this.object[key];
    if (value === undefined) return undefined;
    if (
      typeof value !== 'number' ||
      !Number.isFinite(value) ||
      (integer && !Number.isInteger(value))
    ) {
      this.fail(`${this.#at(key)} must be ${integer ? 'a whole number' : 'a number'}`);
      return undefined;
    }
    return value;
  }

  /** A boolean. */
  boolean(key: string): boolean | undefined {
    const value = this.object[key];
    if (value === undefined) return undefined;
    if (typeof value !== 'boolean') {
      this.fail(`${this.#at(key)} must be true or false`);
      return undefined;
    }
    return value;
  }

  /** An object of string values (such as `pg_settings`). */
  stringMap(key: string): Record<string, string> | undefined {
    const value = this.object[key];
    if (value === undefined) return undefined;
    const object = asObject(value);
    if (object === undefined || !Object.values(object).every((v) => typeof v === 'string')) {
      this.fail(`${this.#at(key)} must be an object of string values`);
      return undefined;
    }
    return { ...(object as Record<string, string>) };
  }

  #at(key: string): string {
    return this.path === 'body' ? key : `${this.path}.${key}`;
  }

  #child(object: Record<string, unknown>, path: string): BodyReader {
    return new BodyReader(object, path, this.#sink);
  }
}
