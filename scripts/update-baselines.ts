/**
 * `npm run test:update-baselines`: the only way the layout gate's screenshot baselines
 * (tests/e2e/baselines/*.png, tests/e2e/layout.test.ts) are written. Runs that test file with
 * UPDATE_BASELINES=1, which writes the picture of every state whose baseline is missing or differs
 * beyond the tolerance, and leaves the others untouched (no churn from noise). The layout audit and
 * the taps are still checked: a state with findings gets its picture written all the same, and the
 * run fails, so a broken screen is not taken for the expected one unnoticed. Look at the new pictures
 * (git diff, or git status for new ones) before committing them.
 *
 * Build first (`npm run build`): the gate photographs dist/. Extra arguments go to vitest, e.g.
 * `npm run test:update-baselines -- -t ar-dark` for one walk.
 */
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const BASELINES = path.join(ROOT, 'tests', 'e2e', 'baselines');

function pictures(): Map<string, number> {
  if (!fs.existsSync(BASELINES)) return new Map();
  return new Map(
    fs
      .readdirSync(BASELINES)
      .filter((name) => name.endsWith('.png'))
      .map((name) => [name, fs.statSync(path.join(BASELINES, name)).mtimeMs]),
  );
}

const before = pictures();
const run = spawnSync(
  process.execPath,
  [
    path.join(ROOT, 'node_modules', 'vitest', 'vitest.mjs'),
    'run',
    '--project',
    'e2e',
    'tests/e2e/layout.test.ts',
    ...process.argv.slice(2),
  ],
  { cwd: ROOT, stdio: 'inherit', env: { ...process.env, UPDATE_BASELINES: '1' } },
);

const written = [...pictures()].filter(([name, modified]) => before.get(name) !== modified).map(([name]) => name);
console.log(
  written.length === 0
    ? '\nNo baseline written: every state matches its picture.'
    : `\n${written.length} baseline(s) written in ${path.relative(ROOT, BASELINES)}/:\n${written.map((name) => `  ${name}`).join('\n')}`,
);
if (run.status !== 0) {
  console.log(
    '\nThe layout gate failed (see above and test-results/layout/): the pictures were written all the same; ' +
      'do not commit them before its findings are fixed.',
  );
}
process.exit(run.status ?? 1);
