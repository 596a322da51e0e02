// @vitest-environment node
/**
 * The retry reporter on real vitest runs of small fixture files (retry-fixtures/), each run in a
 * child process as CI runs the suites: one retry allowed, the reporter added. (The config is loaded
 * by Vite's module runner, not bundled: bundling writes a temporary file beside the fixtures.)
 */
import { spawn } from 'node:child_process';
import path from 'node:path';
import { describe, expect, it } from 'vitest';

const ROOT = path.resolve(import.meta.dirname, '../..');
const CONFIG = path.join(import.meta.dirname, 'retry-fixtures', 'vitest.config.ts');
const VITEST = path.join(ROOT, 'node_modules', 'vitest', 'vitest.mjs');

interface Run {
  code: number | null;
  stderr: string;
}

function runFixtures(env: { RETRY_FIXTURE?: string; CI_FAIL_ON_RETRY?: string }): Promise<Run> {
  const inherited = { ...process.env };
  delete inherited.CI_FAIL_ON_RETRY;
  delete inherited.VITEST;
  delete inherited.TEST;
  const child = spawn(process.execPath, [VITEST, 'run', '--config', CONFIG, '--configLoader', 'runner'], {
    cwd: ROOT,
    env: { ...inherited, NO_COLOR: '1', ...env },
    stdio: ['ignore', 'ignore', 'pipe'],
  });
  let stderr = '';
  child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  return new Promise((resolve) => child.once('close', (code) => resolve({ code, stderr })));
}

/** The reporter's lines, without vitest's own output around them. */
function reportLines(stderr: string): string[] {
  return stderr.split('\n').filter((line) => line.startsWith('!!!'));
}

const RULE = '!'.repeat(100);

describe('the retry reporter', () => {
  it('lists every retried test by file and full name with its first failure, where it failed and its diff, and only those', async () => {
    const run = await runFixtures({});

    expect(run.code).toBe(1);
    expect(reportLines(run.stderr)).toEqual([
      RULE,
      '!!! 2 TESTS NEEDED A RETRY: each one is a flaky test to fix (a retry only hides it)',
      RULE,
      '!!! [fixtures] broken.fixture.ts',
      '!!!     never passes  (failed all 2 attempts)',
      "!!!     first failure: AssertionError: expected 'sent' to be 'stored' // Object.is equality",
      '!!!       at broken.fixture.ts:5:18',
      '!!!       Expected: "stored"',
      '!!!       Received: "sent"',
      '!!! [fixtures] flaky.fixture.ts',
      '!!!     outbox > passes on its second attempt  (passed on retry 1)',
      '!!!     first failure: AssertionError: first attempt races the sync: expected 1 to be 2 // Object.is equality',
      '!!!       at flaky.fixture.ts:13:54',
      '!!!       - Expected',
      '!!!       + Received',
      '!!!       ',
      '!!!       - 2',
      '!!!       + 1',
      RULE,
    ]);
  });

  it('lets a test that passed on its retry pass the run, unless CI_FAIL_ON_RETRY=1', async () => {
    const lenient = await runFixtures({ RETRY_FIXTURE: 'flaky.fixture.ts' });
    expect(lenient.code).toBe(0);
    expect(reportLines(lenient.stderr)).toContain('!!!     outbox > passes on its second attempt  (passed on retry 1)');

    const strict = await runFixtures({ RETRY_FIXTURE: 'flaky.fixture.ts', CI_FAIL_ON_RETRY: '1' });
    expect(strict.code).toBe(1);
    expect(strict.stderr).toContain('CI_FAIL_ON_RETRY=1: a test that needed its retry fails the run.');
  });

  it('prints nothing when no test needed a retry, even with CI_FAIL_ON_RETRY=1', async () => {
    const run = await runFixtures({ RETRY_FIXTURE: 'steady.fixture.ts', CI_FAIL_ON_RETRY: '1' });

    expect(run.code).toBe(0);
    expect(reportLines(run.stderr)).toEqual([]);
  });
});
