/**
 * The line every statement to the embedded PGlite waits in (server/db/client.ts): the event loop gets
 * a turn between any two statements, and a photo's bytes (the bulk lane) go after every other call.
 */
import { describe, expect, it } from 'vitest';
import { lineForPglite } from '../../../server/db/client';

/**
 * Stands in for PGlite: each statement holds the thread for a while (its WebAssembly), and answers
 * through an already settled promise, so waiting calls follow one another in microtasks.
 */
function fakePglite(log: string[], busyMs = 2) {
  return {
    name: 'fake',
    async query(sql: string) {
      const until = performance.now() + busyMs;
      while (performance.now() < until) {
        // Busy, as WebAssembly is.
      }
      log.push(sql);
      return { rows: [] };
    },
    closed() {
      return false;
    },
  };
}

describe('the line to PGlite', () => {
  it('lets the event loop answer between statements, where PGlite alone runs them all first', async () => {
    /** Where, among 100 waiting statements, a callback ready meanwhile (a socket's data, a timer) runs. */
    const turnAmong = async (log: string[], client: { query(sql: string): Promise<unknown> }) => {
      const statements = Array.from({ length: 100 }, (_, i) => client.query(`select ${i}`));
      const turn = new Promise<void>((resolve) => setImmediate(resolve)).then(() => log.push('event loop'));
      await Promise.all([...statements, turn]);
      return log.indexOf('event loop');
    };
    const alone: string[] = [];
    expect(await turnAmong(alone, fakePglite(alone))).toBe(100);
    const lined: string[] = [];
    expect(await turnAmong(lined, lineForPglite(fakePglite(lined)).first)).toBeLessThanOrEqual(1);
  });

  it('runs a waiting call of the first lane before every waiting bulk call, each lane in order', async () => {
    const log: string[] = [];
    const line = lineForPglite(fakePglite(log, 0));
    const calls = [
      line.bulk.query('piece 1'),
      line.bulk.query('piece 2'),
      line.bulk.query('piece 3'),
      line.first.query('lookup 1'),
      line.first.query('lookup 2'),
    ];
    await Promise.all(calls);
    expect(log).toEqual(['piece 1', 'lookup 1', 'lookup 2', 'piece 2', 'piece 3']);
  });

  it('passes everything else through to the client, and a failure to its caller only', async () => {
    const failing = {
      ...fakePglite([]),
      async query(sql: string) {
        if (sql === 'bad') throw new Error('syntax error');
        return { rows: [sql] };
      },
    };
    const { first } = lineForPglite(failing);
    expect(first.name).toBe('fake');
    expect(first.closed()).toBe(false);
    await expect(first.query('bad')).rejects.toThrow('syntax error');
    await expect(first.query('good')).resolves.toEqual({ rows: ['good'] });
  });
});
