// @vitest-environment node
/**
 * A newcomer can follow every reference: code and tests point to the repository's own docs, never
 * to files outside it, and every `docs/<FILE>.md#anchor` they name exists.
 */
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { anchorOf } from '../../scripts/markdown-anchor';

const ROOT = path.resolve(__dirname, '../..');
const SOURCE_DIRS = ['src', 'server', 'contract', 'tests', 'scripts', 'bench', '.ci'];
const SOURCE_FILE = /\.(tsx?|js|mjs|cjs|sh)$|^run$/;

function sourceFiles(dir: string): string[] {
  const full = path.join(ROOT, dir);
  if (!fs.existsSync(full)) return [];
  return fs.readdirSync(full, { withFileTypes: true }).flatMap((entry) => {
    const relative = path.join(dir, entry.name);
    if (entry.isDirectory()) return entry.name === 'node_modules' ? [] : sourceFiles(relative);
    return SOURCE_FILE.test(entry.name) ? [relative] : [];
  });
}

function anchorsOf(docFile: string): Set<string> {
  const text = fs.readFileSync(path.join(ROOT, docFile), 'utf8');
  return new Set([...text.matchAll(/^#{1,6}\s+(.+)$/gm)].map((match) => anchorOf(match[1]!)));
}

/** The project's own prose: the README, every Markdown file under docs/ (decision records included), the bench's history. */
function markdownFiles(dir: string): string[] {
  return fs.readdirSync(path.join(ROOT, dir), { withFileTypes: true }).flatMap((entry) => {
    const relative = path.join(dir, entry.name);
    if (entry.isDirectory()) return markdownFiles(relative);
    return entry.name.endsWith('.md') ? [relative] : [];
  });
}

const DOCS = ['README.md', ...markdownFiles('docs'), path.join('bench', 'results', 'history.md')].filter((doc) =>
  fs.existsSync(path.join(ROOT, doc)),
);

const files = SOURCE_DIRS.flatMap(sourceFiles).filter(
  (file) => file !== path.join('tests', 'docs', 'references.test.ts'),
);

describe('references in code and tests', () => {
  it('never point outside the repository', () => {
    const outside = files.flatMap((file) =>
      fs
        .readFileSync(path.join(ROOT, file), 'utf8')
        .split('\n')
        .flatMap((line, index) =>
          /\b(SPEC|DESIGN|TOOLCHAIN)\.md\b|\.\.\/shared\//.test(line) ? [`${file}:${index + 1}`] : [],
        ),
    );
    expect(outside).toEqual([]);
  });

  it('name docs and anchors that exist', () => {
    const anchors = new Map<string, Set<string>>();
    const broken: string[] = [];
    for (const file of files) {
      const text = fs.readFileSync(path.join(ROOT, file), 'utf8');
      for (const match of text.matchAll(/\b(docs\/[\w-]+\.md|README\.md)(?:#([\w-]+))?/g)) {
        const [reference, docFile, anchor] = match as unknown as [string, string, string | undefined];
        if (!fs.existsSync(path.join(ROOT, docFile))) {
          broken.push(`${file}: ${reference} (no such file)`);
          continue;
        }
        if (!anchor) continue;
        if (!anchors.has(docFile)) anchors.set(docFile, anchorsOf(docFile));
        if (!anchors.get(docFile)!.has(anchor)) broken.push(`${file}: ${reference} (no such heading)`);
      }
    }
    expect(broken).toEqual([]);
  });

  it('in the docs, name files and folders of the repository that exist', () => {
    const missing = DOCS.flatMap((doc) =>
      [
        ...fs
          .readFileSync(path.join(ROOT, doc), 'utf8')
          .matchAll(/`((?:src|server|contract|tests|bench|scripts|eslint)\/[\w./-]+)`/g),
      ]
        .map((match) => match[1]!.replace(/\.$/, ''))
        .filter((named) => !fs.existsSync(path.join(ROOT, named)))
        .map((named) => `${doc}: ${named}`),
    );
    expect(missing).toEqual([]);
  });

  it('in the docs, link to files and headings that exist', () => {
    const broken = DOCS.flatMap((doc) =>
      [...fs.readFileSync(path.join(ROOT, doc), 'utf8').matchAll(/\]\(([^)\s]+)\)/g)].flatMap((match) => {
        const link = match[1]!;
        if (/^[a-z]+:/i.test(link)) return [];
        const [target = '', anchor] = link.split('#');
        const linked = target === '' ? doc : path.join(path.dirname(doc), target);
        if (!fs.existsSync(path.join(ROOT, linked))) return [`${doc}: ${link} (no such file)`];
        if (!anchor || !linked.endsWith('.md')) return [];
        return anchorsOf(linked).has(anchor) ? [] : [`${doc}: ${link} (no such heading)`];
      }),
    );
    expect(broken).toEqual([]);
  });

  it('list every decision record in the decisions index', () => {
    const index = fs.readFileSync(path.join(ROOT, 'docs', 'decisions', 'README.md'), 'utf8');
    const records = fs
      .readdirSync(path.join(ROOT, 'docs', 'decisions'))
      .filter((name) => /^\d{4}-[\w-]+\.md$/.test(name));
    expect(records.length).toBeGreaterThan(0);
    expect(records.filter((name) => !index.includes(`](${name})`))).toEqual([]);
  });

  it('follow GitHub anchors', () => {
    expect(anchorOf('The offline model in practice')).toBe('the-offline-model-in-practice');
    expect(anchorOf('`GET /vehicles/{kode_id}`')).toBe('get-vehicleskode_id');
    expect(anchorOf('Repair entry (dashboard and correction dialog)')).toBe(
      'repair-entry-dashboard-and-correction-dialog',
    );
  });
});
