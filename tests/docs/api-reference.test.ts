// @vitest-environment node
/**
 * docs/api-reference.md is generated from the contract (`npm run docs:api`): rendered again here, it
 * must equal the committed file, and every section of docs/API.md it points to must exist.
 */
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { API_REFERENCE } from '../../contract/api-reference';
import { API_REFERENCE_COMMAND, API_REFERENCE_FILE, renderApiReference } from '../../scripts/api-docs';
import { anchorOf } from '../../scripts/markdown-anchor';
import { buildOpenApiDocument } from '../../server/plugins/openapi';

describe('the generated API reference', () => {
  it('is up to date with the contract', () => {
    const committed = fs.existsSync(API_REFERENCE_FILE) ? fs.readFileSync(API_REFERENCE_FILE, 'utf8') : '';
    const fresh = renderApiReference(buildOpenApiDocument());
    if (committed !== fresh) {
      expect.fail(
        `${path.basename(API_REFERENCE_FILE)} is stale: run \`${API_REFERENCE_COMMAND}\` and commit the result`,
      );
    }
  });

  it('points to sections of docs/API.md that exist, and API.md points to it', () => {
    const guide = fs.readFileSync(path.join(path.dirname(API_REFERENCE_FILE), 'API.md'), 'utf8');
    const anchors = new Set([...guide.matchAll(/^#{1,6}\s+(.+)$/gm)].map((match) => anchorOf(match[1]!)));
    const missing = Object.entries(API_REFERENCE).flatMap(([key, reference]) =>
      anchors.has(reference.guide) ? [] : [`${key}: API.md#${reference.guide}`],
    );
    expect(missing).toEqual([]);
    expect(guide).toContain('(api-reference.md)');
  });
});
