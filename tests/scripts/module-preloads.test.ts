/** Which chunks a page announces with module preloads (scripts/module-preloads.ts). */
import { describe, expect, it } from 'vitest';
import { chunkFilesOf, filesInHtml, withModulePreloads, type BuiltBundle } from '../../scripts/module-preloads';

const chunk = (fileName: string, moduleIds: string[], imports: string[] = []) =>
  ({ type: 'chunk', fileName, moduleIds, imports }) as const;

const BUNDLE: BuiltBundle = {
  'assets/index.js': chunk('assets/index.js', ['/app/src/main.tsx']),
  'assets/boot.js': chunk('assets/boot.js', ['/app/src/boot.tsx', '/app/node_modules/react-dom/index.js']),
  'assets/contract.js': chunk('assets/contract.js', ['/app/contract/index.ts']),
  'assets/form.js': chunk('assets/form.js', ['/app/src/form.ts'], ['assets/contract.js', 'assets/boot.js']),
  'assets/LoginPage.js': chunk('assets/LoginPage.js', ['/app/src/LoginPage.tsx'], ['assets/form.js', 'assets/boot.js']),
  'assets/map.js': chunk('assets/map.js', ['/app/src/map.tsx'], ['assets/boot.js']),
  'assets/logo.svg': { type: 'asset' },
};

describe('the chunks of modules', () => {
  it('are the chunks that hold them and every chunk they import, dependencies first, each once', () => {
    expect(chunkFilesOf(BUNDLE, ['/app/src/LoginPage.tsx'])).toEqual([
      'assets/contract.js',
      'assets/boot.js',
      'assets/form.js',
      'assets/LoginPage.js',
    ]);
    expect(chunkFilesOf(BUNDLE, ['/app/src/boot.tsx', '/app/src/form.ts'])).toEqual([
      'assets/boot.js',
      'assets/contract.js',
      'assets/form.js',
    ]);
  });

  it('leave out what the modules do not import (a lazy screen’s code)', () => {
    expect(chunkFilesOf(BUNDLE, ['/app/src/boot.tsx'])).toEqual(['assets/boot.js']);
  });

  it('refuse a module no chunk holds, so that a renamed screen does not silently lose its preload', () => {
    expect(() => chunkFilesOf(BUNDLE, ['/app/src/Renamed.tsx'])).toThrow(/Renamed/);
  });
});

describe('module preloads in a page', () => {
  const PAGE =
    '<head><script type="module" crossorigin src="/assets/index.js"></script><link rel="modulepreload" crossorigin href="/assets/boot.js"><link rel="manifest" href="/manifest.webmanifest"><style>a{}</style></head>';

  it('go after the entry script and its earlier preloads, before the styles', () => {
    expect(withModulePreloads(PAGE, ['assets/form.js'])).toBe(
      '<head><script type="module" crossorigin src="/assets/index.js"></script><link rel="modulepreload" crossorigin href="/assets/boot.js"><link rel="modulepreload" crossorigin href="/assets/form.js"><link rel="manifest" href="/manifest.webmanifest"><style>a{}</style></head>',
    );
  });

  it('are known with the scripts, so that none is announced twice', () => {
    expect([...filesInHtml(PAGE)]).toEqual(['assets/index.js', 'assets/boot.js']);
  });

  it('need an entry script to follow', () => {
    expect(() => withModulePreloads('<head></head>', ['assets/form.js'])).toThrow(/module script/);
  });
});
