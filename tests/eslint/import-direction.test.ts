// @vitest-environment node
/**
 * The import direction of docs/ARCHITECTURE.md#layout, through the project's own ESLint
 * configuration (import-x's restricted zones, and no-restricted-imports for Dexie itself), so a rule
 * switched off or a wrong glob shows here too.
 */
import { ESLint } from 'eslint';
import { describe, expect, it } from 'vitest';

const eslint = new ESLint({ cwd: process.cwd() });

const LAYOUT_RULES = ['import-x/no-restricted-paths', 'no-restricted-imports'];

async function problemsOf(filePath: string, code: string, rule?: string): Promise<string[]> {
  const [result] = await eslint.lintText(code, { filePath });
  const counted = (ruleId: string | null) => (rule ? ruleId === rule : LAYOUT_RULES.includes(ruleId ?? ''));
  return (result?.messages ?? []).filter((m) => counted(m.ruleId)).map((m) => m.message);
}

describe('the import direction', () => {
  it.each([
    ['src/lib/example.ts', "import { useHistory } from '../features/dashboard/data/vehicles';"],
    ['src/lib/entries/example.ts', "export { x } from '../../app/App';"],
    ['src/components/ui/example.tsx', "void import('../../features/auth/pages/LoginPage');"],
    ['src/config/example.ts', "import '../app/theme';"],
  ])('refuses shared code importing a feature or the app (%s)', async (file, code) => {
    expect(await problemsOf(file, code)).toEqual([expect.stringMatching(/never imports a feature or the app/)]);
  });

  it('refuses a feature importing another feature or the app', async () => {
    expect(
      await problemsOf('src/features/profile/pages/Example.tsx', "import { x } from '../../dashboard/data/vehicles';"),
    ).toEqual([expect.stringMatching(/Features never import each other \(profile → another feature\)/)]);
    expect(await problemsOf('src/features/auth/pages/Example.tsx', "import { x } from '../../../app/Router';")).toEqual(
      [expect.stringMatching(/A feature never imports the app/)],
    );
  });

  it.each([
    ['src/features/dashboard/components/Example.tsx', "import Dexie from 'dexie';"],
    ['src/features/dashboard/pages/Example.tsx', "import { useLocalQuery } from '../../../lib/local-query';"],
    ['src/features/dashboard/components/Example.tsx', "void import('../../../lib/local-store');"],
    ['src/features/dashboard/hooks/example.ts', "import { db } from '../../../lib/db';"],
    ['src/components/example.tsx', "import { db } from '../lib/db';"],
    ['src/app/example.tsx', "import { db } from '../lib/db';"],
  ])('keeps IndexedDB out of components, pages and hooks (%s)', async (file, code) => {
    expect(await problemsOf(file, code)).toEqual([expect.stringMatching(/IndexedDB is reached through src\/lib/)]);
  });

  it.each([
    ['src/features/dashboard/data/example.ts', "import Dexie from 'dexie';\nimport { db } from '../../../lib/db';"],
    ['src/lib/example.ts', "import { db } from './db';\nimport { liveQuery } from 'dexie';"],
    [
      'src/features/dashboard/data/example.ts',
      "import { loadLocalStore, useLocalQuery } from '../../../lib/local-query';",
    ],
    ['src/features/auth/pages/Example.tsx', "import { paths } from '../../../config/paths';"],
    ['src/features/dashboard/components/Example.tsx', "import { lookupVehicle } from '../data/vehicles';"],
    ['src/app/Example.tsx', "import { LoginPage } from '../features/auth/pages/LoginPage';"],
    ['src/components/example.tsx', "import { apiRequest } from '../lib/api/client';"],
  ])('allows what the layout allows (%s)', async (file, code) => {
    expect(await problemsOf(file, code)).toEqual([]);
  });

  it('checks the dependencies of a live read of the tablet’s database as those of an effect', async () => {
    const read = (deps: string) =>
      [
        "import { useLocalQuery } from '../../../lib/local-query';",
        'export function useExample(id: string) {',
        `  return useLocalQuery(async ({ db }) => db.meta.get(id), ${deps}, undefined);`,
        '}',
      ].join('\n');
    const rule = 'react-hooks/exhaustive-deps';
    expect(await problemsOf('src/features/dashboard/data/example.ts', read('[]'), rule)).toEqual([
      expect.stringMatching(/React Hook useLocalQuery has a missing dependency: 'id'/),
    ]);
    expect(await problemsOf('src/features/dashboard/data/example.ts', read('[id]'), rule)).toEqual([]);
  });

  it.each([
    ['src/features/dashboard/components/Example.tsx', "import { addToOutbox } from '../../../lib/entries/outbox';"],
    ['src/features/sync/components/Example.tsx', "void import('../../../lib/entries/engine');"],
    ['src/features/dashboard/data/example.ts', "export { outboxEntry } from '../../../lib/entries/outbox-queries';"],
    ['src/components/Example.tsx', "import type { EntryDifference } from '../lib/entries/entry-conflict';"],
    ['src/sw.ts', "import { sendInBackground } from './lib/entries/background-worker';"],
  ])('refuses an entries internal from outside the module (%s)', async (file, code) => {
    expect(await problemsOf(file, code)).toEqual([expect.stringMatching(/Entries are reached through their doors/)]);
  });

  it.each([
    ['src/features/dashboard/components/Example.tsx', "import { useHistory } from '../../../lib/entries/history';"],
    ['src/features/dashboard/components/Example.tsx', "import { STATUS_LOOKS } from '../../../lib/entries/words';"],
    ['src/features/sync/components/Example.tsx', "import { useSyncStatus } from '../../../lib/entries/hooks';"],
    ['src/features/sync/components/Example.tsx', "void import('../../../lib/entries');"],
    ['src/sw.ts', "import { sendOutboxFromWorker } from './lib/entries/worker';"],
    ['src/lib/entries/example.ts', "import { addToOutbox } from './outbox';"],
  ])('lets anyone through the entries doors, and the module use its own parts (%s)', async (file, code) => {
    expect(await problemsOf(file, code)).toEqual([]);
  });

  it('lets only the entries module touch the outbox table', async () => {
    const code = "import { db } from '../../../lib/db';\nvoid db.outbox.toArray();";
    expect(await problemsOf('src/features/dashboard/data/example.ts', code, 'no-restricted-syntax')).toEqual([
      'Only src/lib/entries touches the outbox table: use its doors.',
    ]);
    const inSync = "import { db } from '../db';\nvoid db.outbox.toArray();";
    expect(await problemsOf('src/lib/entries/example.ts', inSync, 'no-restricted-syntax')).toEqual([]);
  });
});
