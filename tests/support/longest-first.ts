/**
 * The order test files start in: Vitest's own (each project's group, then larger files first, or the
 * slowest first once its cache has timed a run), except for the end-to-end files, which start by how
 * long they took in CI. Sorted by size, two of the slowest (the screens' audit and pictures) were small
 * files that started last, and the run waited two minutes on them alone.
 * A clean clone has no cache, so the times are kept here; a file not listed starts after those listed.
 */
import path from 'node:path';
import { BaseSequencer, type TestSpecification } from 'vitest/node';

/**
 * Seconds each end-to-end file took in a full run of the end-to-end project, two files at a time
 * (2026-11-29; screens.test.ts estimated from the two files it joined).
 */
const E2E_SECONDS: Record<string, number> = {
  'layout.test.ts': 153,
  'screens.test.ts': 130,
  'offline-history.test.ts': 111,
  'prerender.test.ts': 84,
  'scan.test.ts': 80,
  'journeys.test.ts': 76,
  'photos.test.ts': 69,
  'offline-sync.test.ts': 63,
  'first-session.test.ts': 54,
  'offline.test.ts': 52,
  'what-the-mechanic-sees.test.ts': 48,
  'devices.test.ts': 48,
  'handover.test.ts': 50,
  'background-sync.test.ts': 36,
  'sign-out.test.ts': 34,
  'install-update.test.ts': 34,
  'odometer-integrity.test.ts': 32,
  'storage-health.test.ts': 26,
  'first-load.test.ts': 17,
  'scale-out.test.ts': 16,
  'smoke.test.ts': 11,
};

export const E2E_PROJECT = 'e2e';

function e2eSeconds(spec: TestSpecification): number {
  return E2E_SECONDS[path.basename(spec.moduleId)] ?? 0;
}

export default class LongestFirstSequencer extends BaseSequencer {
  override async sort(files: TestSpecification[]): Promise<TestSpecification[]> {
    const sorted = await super.sort(files);
    const isE2e = (spec: TestSpecification) => spec.project.name === E2E_PROJECT;
    // The e2e project is a group of its own, run after the others: its files stay last.
    const e2e = sorted.filter(isE2e).sort((a, b) => e2eSeconds(b) - e2eSeconds(a));
    return [...sorted.filter((spec) => !isE2e(spec)), ...e2e];
  }
}
