import { describe, expect, it } from 'vitest';
import { errorText } from '../../src/core/errorText.js';

describe('errorText', () => {
  it('gives the words of whatever was thrown, never [object Object]', () => {
    expect(errorText(new Error('boom'))).toBe('boom');
    expect(errorText({ message: 'from a plain object' })).toBe('from a plain object');
    expect(errorText({ code: 7 })).toBe('{"code":7}');
    const circular: Record<string, unknown> = {};
    circular['self'] = circular;
    expect(errorText(circular)).toBe('[object Object]'); // JSON fails: the type, at least
    expect(errorText('text')).toBe('text');
    expect(errorText(undefined)).toBe('undefined');
  });
});
