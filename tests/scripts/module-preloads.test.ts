/** What a page asks the browser to fetch ahead (scripts/module-preloads.ts). */
import { describe, expect, it } from 'vitest';
import {
  chunkFile,
  importClosure,
  screenChunkName,
  withModulePreloads,
  type BuiltChunk,
} from '../../scripts/module-preloads';

const chunk = (name: string, imports: string[] = [], isEntry = false): BuiltChunk => ({ name, imports, isEntry });

const GRAPH = new Map<string, BuiltChunk>([
  ['app.js', chunk('index', ['assets/boot-1.js'], true)],
  ['assets/boot-1.js', chunk('boot')],
  ['assets/react-dom-1.js', chunk('react-dom', ['assets/boot-1.js'])],
  ['assets/shell-1.js', chunk('shell', ['assets/react-dom-1.js', 'assets/boot-1.js'], true)],
  ['assets/DashboardPage-1.js', chunk('DashboardPage', ['assets/shell-1.js', 'assets/format-1.js'])],
  ['assets/format-1.js', chunk('format', ['assets/boot-1.js'])],
]);

describe('module preloads', () => {
  it('take a chunk with everything it imports, however deep, each once', () => {
    expect(importClosure(GRAPH, ['assets/DashboardPage-1.js']).sort()).toEqual([
      'assets/DashboardPage-1.js',
      'assets/boot-1.js',
      'assets/format-1.js',
      'assets/react-dom-1.js',
      'assets/shell-1.js',
    ]);
  });

  it('find a chunk by name, never an entry, and fail the build for one missing', () => {
    expect(chunkFile(GRAPH, 'DashboardPage')).toBe('assets/DashboardPage-1.js');
    expect(() => chunkFile(GRAPH, 'shell')).toThrow(/no chunk named shell/);
    expect(() => chunkFile(GRAPH, 'ProfilePage')).toThrow(/ProfilePage/);
  });

  it('name the screen of a prerendered page', () => {
    expect(screenChunkName('dashboard')).toBe('DashboardPage');
    expect(screenChunkName('forgot-password')).toBe('ForgotPasswordPage');
  });

  it('link each file once, at the end of the head, leaving those the page links already', () => {
    const page =
      '<html><head><link rel="modulepreload" crossorigin href="/assets/boot-1.js"></head><body></body></html>';
    const linked = withModulePreloads(page, ['assets/boot-1.js', 'assets/shell-1.js']);
    expect(linked).toBe(
      '<html><head><link rel="modulepreload" crossorigin href="/assets/boot-1.js">' +
        '<link rel="modulepreload" crossorigin href="/assets/shell-1.js"></head><body></body></html>',
    );
    expect(() => withModulePreloads('<html><body></body></html>', ['assets/shell-1.js'])).toThrow(/<\/head>/);
  });
});
