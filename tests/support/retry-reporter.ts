/**
 * Lists, at the end of a run, every test that needed its retry: by project, file and full name,
 * with the message of its first failure and where in the project it failed. Vitest's own reporters
 * show a retried test that then passed as a plain pass, so a test that fails under load and passes
 * alone went unseen.
 *
 * Whether a retried test fails the run: the retry stays (a flake caused by a loaded 2-core
 * machine should not block an unrelated change), but the list is printed loudly every time, and
 * with CI_FAIL_ON_RETRY=1 a test that passed only on its retry fails the run too (exit code 1),
 * which is how "no retried test" is checked. A test that failed every attempt fails the run anyway.
 */
import path from 'node:path';
import type { Reporter, TestCase, TestModule } from 'vitest/node';

export interface RetriedTest {
  project: string;
  /** Relative to the project root. */
  file: string;
  /** Suite names and the test's name, joined by " > ". */
  fullName: string;
  /** 'passed' on a retry (a flaky test) or 'failed' on every attempt. */
  outcome: 'passed' | 'failed';
  retries: number;
  firstFailure: string;
  /** Where it failed: the project's own frames of its stack (file:line:column, with the function), innermost first. */
  where: string[];
  /** The assertion's diff (expected against received), line by line; empty when it had none. */
  diff: string[];
}

const RULE = '!'.repeat(100);

function firstLine(text: string): string {
  return text.split('\n').find((line) => line.trim() !== '') ?? text;
}

function retriedTest(testCase: TestCase): RetriedTest | null {
  const retries = testCase.diagnostic()?.retryCount ?? 0;
  const result = testCase.result();
  if (retries === 0 || (result.state !== 'passed' && result.state !== 'failed')) return null;
  // A test that passed on a retry keeps the errors of the attempts before it.
  const error = result.errors?.[0];
  return {
    project: testCase.project.name,
    file: path.relative(testCase.project.config.root, testCase.module.moduleId),
    fullName: testCase.fullName,
    outcome: result.state,
    retries,
    firstFailure: error ? `${error.name ?? 'Error'}: ${firstLine(error.message ?? '')}` : '(no error recorded)',
    // A timeout's message names the wait, not which of a test's waits it was: the stack does.
    where: ownFrames(error?.stacks ?? [], testCase.project.config.root),
    // What differed, when the assertion compared two values: a message alone hides which field it was.
    diff: error?.diff ? diffLines(error.diff) : [],
  };
}

const FRAMES_SHOWN = 3;

/** The stack's frames in the project's own files (not its dependencies), as file:line:column (function). */
function ownFrames(stacks: readonly { file: string; line: number; column: number; method: string }[], root: string) {
  return stacks
    .filter((frame) => !frame.file.includes('/node_modules/'))
    .slice(0, FRAMES_SHOWN)
    .map((frame) => {
      const place = `${path.relative(root, frame.file)}:${frame.line}:${frame.column}`;
      return frame.method ? `${place} (${frame.method})` : place;
    });
}

const DIFF_LINES_SHOWN = 30;

/** The assertion's diff without colours, cut to a length a CI log can show. */
function diffLines(diff: string): string[] {
  // eslint-disable-next-line no-control-regex -- the terminal's colour codes are what is removed
  const lines = diff.replace(/\u001b\[[0-9;]*m/g, '').split('\n');
  const shown = lines.slice(0, DIFF_LINES_SHOWN);
  return lines.length > shown.length ? [...shown, `… ${lines.length - shown.length} more lines`] : shown;
}

/** The loud block printed at the end of a run; empty when nothing was retried. */
export function formatRetriedTests(tests: readonly RetriedTest[]): string {
  if (tests.length === 0) return '';
  const lines = [
    '',
    RULE,
    `!!! ${tests.length} TEST${tests.length === 1 ? '' : 'S'} NEEDED A RETRY: each one is a flaky test to fix (a retry only hides it)`,
    RULE,
  ];
  // Files finish in no set order: sorted, two runs' lists compare line by line.
  const sorted = [...tests].sort((a, b) =>
    `${a.project} ${a.file} ${a.fullName}`.localeCompare(`${b.project} ${b.file} ${b.fullName}`),
  );
  for (const test of sorted) {
    const how =
      test.outcome === 'passed' ? `passed on retry ${test.retries}` : `failed all ${test.retries + 1} attempts`;
    lines.push(`!!! [${test.project}] ${test.file}`, `!!!     ${test.fullName}  (${how})`);
    lines.push(`!!!     first failure: ${test.firstFailure}`, ...test.where.map((place) => `!!!       at ${place}`));
    lines.push(...test.diff.map((line) => `!!!       ${line}`));
  }
  lines.push(RULE, '');
  return lines.join('\n');
}

export default class RetryReporter implements Reporter {
  private retried: RetriedTest[] = [];

  onTestRunStart(): void {
    this.retried = [];
  }

  onTestCaseResult(testCase: TestCase): void {
    const test = retriedTest(testCase);
    if (test) this.retried.push(test);
  }

  onTestRunEnd(_testModules: readonly TestModule[]): void {
    if (this.retried.length === 0) return;
    process.stderr.write(`${formatRetriedTests(this.retried)}\n`);
    if (process.env.CI_FAIL_ON_RETRY === '1' && this.retried.some((test) => test.outcome === 'passed')) {
      process.stderr.write('CI_FAIL_ON_RETRY=1: a test that needed its retry fails the run.\n');
      // Vitest sets the exit code only on failure and never back to 0, so this one stands.
      process.exitCode = 1;
    }
  }
}
