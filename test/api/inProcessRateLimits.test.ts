/**
 * The real service's rate limits in process (fidelity.md: 700 requests a minute per account, bursts
 * of 40 a second per route), counted in virtual time, so a client's backoff on 429 is testable
 * without a server.
 */
import { describe, expect, it } from 'vitest';
import { Simulation } from '../../src/index.js';
import { fetchHandler } from '../../src/entries/serve.js';

describe('rate limits in process (virtual time)', () => {
  it('given rateLimits: true, served in process, the public routes are limited and the control routes are not', async () => {
    const sim = new Simulation({ rateLimits: true });
    const fetch = fetchHandler(sim);
    const get = async (path: string) =>
      (await fetch(new Request(`http://sim.local/api/v2${path}`))).status;
    const api: number[] = [];
    const control: number[] = [];
    for (let i = 0; i < 41; i++) {
      api.push(await get('/projects'));
      control.push(await get('/_sim/clock'));
    }
    expect(api.slice(0, 40).every((status) => status === 200)).toBe(true);
    expect(api[40]).toBe(429);
    expect(control.every((status) => status === 200)).toBe(true);
  });

  it('given rateLimits: true, when 41 requests hit one route in the same second, then the 41st is 429 with Retry-After, and after waiting it is admitted', () => {
    const sim = new Simulation({ rateLimits: true });
    const answers = Array.from({ length: 41 }, () => sim.request('GET', '/projects'));
    expect(answers.slice(0, 40).every((a) => a.status === 200)).toBe(true);
    const limited = answers[40]!;
    expect(limited.status).toBe(429);
    // The real service's error form: an empty code, the reason in the message, a request id.
    expect(limited.body).toMatchObject({
      code: '',
      message: expect.stringContaining('too many requests'),
      request_id: expect.any(String),
    });
    expect(limited.headers?.['retry-after']).toBe('1');
    expect(sim.request('GET', '/projects/no-such-000000').status).toBe(404); // another route
    sim.advance(`${Number(limited.headers?.['retry-after'])}s`);
    expect(sim.request('GET', '/projects').status).toBe(200);
  });

  it('given rateLimits: true, when a client sends 701 requests within a minute, then the 701st waits for the minute window, and a client that honours Retry-After gets through', () => {
    const sim = new Simulation({ rateLimits: true });
    for (let i = 0; i < 700; i++) {
      expect(sim.request('GET', '/projects').status).toBe(200);
      sim.advance(50); // 20 a second: under the per-route burst limit
    }
    const limited = sim.request('GET', '/projects');
    expect(limited.status).toBe(429);
    const wait = Number(limited.headers?.['retry-after']);
    expect(wait).toBeGreaterThan(20);
    expect(wait).toBeLessThanOrEqual(26);
    // A client's backoff loop: wait what the server says, try again.
    let attempts = 1;
    let answer = limited;
    while (answer.status === 429 && attempts < 5) {
      sim.advance(`${Number(answer.headers?.['retry-after'])}s`);
      answer = sim.request('GET', '/projects');
      attempts++;
    }
    expect(answer.status).toBe(200);
    expect(attempts).toBe(2);
  });

  it('given the limits in the profile, when they are lower, then they apply; without them nothing is limited', () => {
    const limited = new Simulation({
      profile: { rateLimits: { enabled: true, perRoutePerSecond: 2 } },
    });
    const statuses = [1, 2, 3].map(() => limited.request('GET', '/projects').status);
    expect(statuses).toEqual([200, 200, 429]);
    const free = new Simulation();
    expect(
      Array.from({ length: 100 }, () => free.request('GET', '/projects').status),
    ).not.toContain(429);
  });

  it('given rate limits, when a request is limited, then nothing changes and the log records nothing', () => {
    const sim = new Simulation({
      profile: { rateLimits: { enabled: true, perRoutePerSecond: 1 } },
    });
    expect(sim.request('POST', '/projects', { project: { name: 'a' } }).status).toBe(201);
    const events = sim.log.length;
    const refused = sim.request('POST', '/projects', { project: { name: 'b' } });
    expect(refused.status).toBe(429);
    expect(sim.log.length).toBe(events);
    expect(Object.keys(sim.state.projects)).toHaveLength(1);
  });
});
