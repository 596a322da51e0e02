// @vitest-environment node
/**
 * docs/api-reference.md is generated from the OpenAPI document the server serves (`npm run docs:api`):
 * rendered again here, it must equal the committed file, and every section of docs/API.md it points to
 * must exist.
 */
import { execFile } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';
import { API_REFERENCE } from '../../contract/api-reference';
import { anchorOf } from '../../scripts/markdown-anchor';

const ROOT = path.resolve(import.meta.dirname, '../..');
const REFERENCE = path.join(ROOT, 'docs', 'api-reference.md');

describe('the generated API reference', () => {
  it('is up to date with the routes and the contract', async () => {
    // Rendered by the script in a process of its own, as `npm run docs:api` renders it: the server it
    // builds does not start in this project's VM contexts (@fastify/cookie fails to load there).
    const script = path.join(ROOT, 'scripts', 'api-docs.ts');
    const { stdout: fresh } = await promisify(execFile)(process.execPath, ['--import', 'tsx', script, '--stdout'], {
      cwd: ROOT,
      maxBuffer: 16 * 1024 * 1024,
    });
    const committed = fs.existsSync(REFERENCE) ? fs.readFileSync(REFERENCE, 'utf8') : '';
    if (committed !== fresh) expect.fail('api-reference.md is stale: run `npm run docs:api` and commit the result');
  });

  it('points to sections of docs/API.md that exist, and API.md points to it', () => {
    const guide = fs.readFileSync(path.join(ROOT, 'docs', 'API.md'), 'utf8');
    const anchors = new Set([...guide.matchAll(/^#{1,6}\s+(.+)$/gm)].map((match) => anchorOf(match[1]!)));
    const missing = Object.entries(API_REFERENCE).flatMap(([key, reference]) =>
      anchors.has(reference.guide) ? [] : [`${key}: API.md#${reference.guide}`],
    );
    expect(missing).toEqual([]);
    expect(guide).toContain('(api-reference.md)');
  });
});
