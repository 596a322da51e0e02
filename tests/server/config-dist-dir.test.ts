import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { ConfigError, loadConfig } from '../../server/config';

describe('DIST_DIR', () => {
  const made: string[] = [];
  afterAll(() => Promise.all(made.map((dir) => fs.rm(dir, { recursive: true, force: true }))));

  it('is unset by default: the server serves dist/ beside server/', () => {
    expect(loadConfig({ NODE_ENV: 'test' }).distDir).toBeNull();
    expect(loadConfig({ NODE_ENV: 'test', DIST_DIR: '' }).distDir).toBeNull();
  });

  it('names a folder holding a built PWA, resolved to an absolute path', async () => {
    const dir = await fs.mkdtemp(path.join(os.tmpdir(), 'dist-dir-'));
    made.push(dir);
    await fs.writeFile(path.join(dir, 'index.html'), '<!doctype html>');
    expect(loadConfig({ NODE_ENV: 'test', DIST_DIR: path.relative(process.cwd(), dir) }).distDir).toBe(dir);
  });

  it('stops the start when the folder has no index.html, naming the variable', async () => {
    const empty = await fs.mkdtemp(path.join(os.tmpdir(), 'dist-dir-'));
    made.push(empty);
    for (const value of [empty, path.join(empty, 'missing')]) {
      expect(() => loadConfig({ NODE_ENV: 'test', DIST_DIR: value })).toThrow(ConfigError);
      expect(() => loadConfig({ NODE_ENV: 'test', DIST_DIR: value })).toThrow(/^DIST_DIR must be a folder/);
    }
  });
});
