/** Chakra's system computes its global styles on first use (scripts/lazy-design-system-globals.ts). */
import fs from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { lazyGlobalsSource } from '../../scripts/lazy-design-system-globals';

const require = createRequire(import.meta.url);
const chakraEsm = path.dirname(require.resolve('@chakra-ui/react')).replace(/cjs$/, 'esm');
const SYSTEM_FILE = path.join(chakraEsm, 'styled-system', 'system.js');

describe('the system of the pinned @chakra-ui/react', () => {
  const source = fs.readFileSync(SYSTEM_FILE, 'utf8');
  const rewritten = lazyGlobalsSource(source);

  it('no longer builds the global styles when it is created', () => {
    expect(source).toContain('const _global = [getPreflightCss(), getGlobalCss(), getTokenCss()];');
    expect(rewritten).not.toContain('const _global =');
  });

  it('builds them once, the first time they are read', () => {
    expect(rewritten).toContain('get _global() {');
    expect(rewritten).toContain('_globalOnFirstUse ??= [getPreflightCss(), getGlobalCss(), getTokenCss()]');
  });

  it('stops the build when a version no longer has what it rewrites', () => {
    expect(() => lazyGlobalsSource(source.replace('    _global,\n', '    _global: _global,\n'))).toThrow(
      /not found once in Chakra's system\.js/,
    );
    expect(() => lazyGlobalsSource('export {}')).toThrow(/update scripts\/lazy-design-system-globals\.ts/);
  });
});
