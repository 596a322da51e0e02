// @vitest-environment node
/**
 * The service worker's build has none of the app's transforms (vite.config.ts builds it with Rollup
 * alone), so a module it imports must not use Lingui's macros: compiled nowhere, the macro would pull
 * babel into the worker and the worker would not start (docs/decisions/0038-entries-get-one-home.md).
 * This walks the worker's static imports from src/sw.ts.
 */
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';

const ROOT = process.cwd();
const IMPORT =
  /(?:import|export)\s+(?:type\s+)?(?:[^'";]*?\s+from\s+)?['"]([^'"]+)['"]|import\(\s*['"]([^'"]+)['"]\s*\)/g;

function resolveRelative(from: string, specifier: string): string | null {
  const base = path.resolve(path.dirname(from), specifier);
  for (const candidate of [base, `${base}.ts`, `${base}.tsx`, path.join(base, 'index.ts')]) {
    if (fs.existsSync(candidate) && fs.statSync(candidate).isFile()) return candidate;
  }
  return null;
}

/** Every package the modules reachable from `entry` import, with the module that imports it. */
function packagesReachedFrom(entry: string): Map<string, string> {
  const packages = new Map<string, string>();
  const seen = new Set<string>();
  const queue = [entry];
  while (queue.length > 0) {
    const file = queue.pop()!;
    if (seen.has(file)) continue;
    seen.add(file);
    const source = fs.readFileSync(file, 'utf8');
    for (const match of source.matchAll(IMPORT)) {
      const specifier = match[1] ?? match[2]!;
      if (match[0].startsWith('import type') || match[0].startsWith('export type')) continue;
      if (!specifier.startsWith('.')) {
        if (!packages.has(specifier)) packages.set(specifier, path.relative(ROOT, file));
        continue;
      }
      const resolved = resolveRelative(file, specifier);
      if (resolved) queue.push(resolved);
    }
  }
  return packages;
}

describe('the service worker’s modules', () => {
  it('use no Lingui macro, which only the app’s build compiles', () => {
    const reached = packagesReachedFrom(path.join(ROOT, 'src/sw.ts'));
    expect(reached.size).toBeGreaterThan(3);
    const macros = [...reached].filter(([name]) => name.endsWith('/macro')).map(([name, by]) => `${name} (${by})`);
    expect(macros).toEqual([]);
  });
});
