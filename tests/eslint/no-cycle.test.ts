// @vitest-environment node
/**
 * No import circles (docs/ARCHITECTURE.md#layout), through the project's own ESLint configuration: the
 * file linted here imports a module that, on disk, imports it back.
 */
import { ESLint } from 'eslint';
import { describe, expect, it } from 'vitest';

const eslint = new ESLint({ cwd: process.cwd() });

async function cyclesOf(filePath: string, code: string): Promise<string[]> {
  const [result] = await eslint.lintText(code, { filePath });
  return (result?.messages ?? []).filter((m) => m.ruleId === 'import-x/no-cycle').map((m) => m.message);
}

describe('import circles', () => {
  it('are refused, directly or through other modules', async () => {
    // src/lib/entries/index.ts imports sender.ts: sender.ts importing index.ts back closes a circle.
    expect(
      await cyclesOf('src/lib/entries/sender.ts', "import { startSync } from './index';\nexport const s = startSync;"),
    ).toEqual([expect.stringMatching(/Dependency cycle/)]);
    // db.ts → entries/outbox-meta.ts; outbox-meta reaching db.ts through the sender closes a longer one.
    expect(
      await cyclesOf(
        'src/lib/entries/outbox-meta.ts',
        "import { getSyncEngine } from './sender';\nexport const s = getSyncEngine;",
      ),
    ).toEqual([expect.stringMatching(/Dependency cycle/)]);
  });

  it('in the contract too', async () => {
    expect(
      await cyclesOf('contract/codes.ts', "import { errorBody } from './answers';\nexport const body = errorBody;"),
    ).toEqual([expect.stringMatching(/Dependency cycle/)]);
  });

  it('leave modules that import in one direction alone', async () => {
    expect(
      await cyclesOf(
        'src/lib/entries/sender.ts',
        "import { SyncEngine } from './engine';\nexport const E = SyncEngine;",
      ),
    ).toEqual([]);
  });
});
