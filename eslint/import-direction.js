/**
 * The PWA's import direction (docs/ARCHITECTURE.md#layout), checked by lint:
 * - shared code (src/lib, src/components, src/hooks, src/config, src/locales) never imports a feature or the app;
 * - a feature never imports another feature or the app: features are composed in src/app;
 * - IndexedDB (dexie, src/lib/db and the screens' way to it, src/lib/local-query) is reached only from src/lib and from a
 *   feature's own data modules (src/features/<name>/data), never from a component or a page.
 * Relative imports are resolved against the importing file, so the rule needs no resolver.
 */
import path from 'node:path';

const STORAGE_PACKAGES = new Set(['dexie']);

/** Where a file sits in the architecture, from its path relative to the project's root. */
export function layerOf(file) {
  const parts = file.split('/');
  if (parts[0] !== 'src') return { kind: 'outside' };
  if (parts[1] === 'features' && parts.length > 3) return { kind: 'feature', name: parts[2], area: parts[3] };
  if (['lib', 'components', 'hooks', 'config', 'locales'].includes(parts[1])) return { kind: 'shared', area: parts[1] };
  return { kind: 'app' };
}

function reachesStorage(source, target) {
  if (STORAGE_PACKAGES.has(source)) return true;
  return ['src/lib/db', 'src/lib/local-store', 'src/lib/local-query'].includes(target?.replace(/\.tsx?$/, ''));
}

function mayReachStorage(from) {
  return (from.kind === 'shared' && from.area === 'lib') || (from.kind === 'feature' && from.area === 'data');
}

/** Why `importer` may not import `source` (resolved to `target`, null for a package), or null. */
export function importViolation(importer, source, target) {
  const from = layerOf(importer);
  if (from.kind === 'outside') return null;
  if (reachesStorage(source, target) && !mayReachStorage(from)) {
    return 'IndexedDB is reached through src/lib or the feature’s data modules (src/features/<name>/data), never from here.';
  }
  if (target === null) return null;
  const to = layerOf(target);
  if (from.kind === 'shared' && (to.kind === 'feature' || to.kind === 'app')) {
    return 'Shared code (src/lib, src/components, src/hooks, src/config) never imports a feature or the app.';
  }
  if (from.kind === 'feature' && to.kind === 'app') return 'A feature never imports the app; compose it in src/app.';
  if (from.kind === 'feature' && to.kind === 'feature' && to.name !== from.name) {
    return `Features never import each other (${from.name} → ${to.name}); compose them in src/app or move the shared part to src/components or src/lib.`;
  }
  return null;
}

/** @type {import('eslint').Rule.RuleModule} */
export const importDirection = {
  meta: { type: 'problem', schema: [], docs: { description: 'Enforces the PWA’s import direction.' } },
  create(context) {
    const importer = path.relative(context.cwd, context.filename).split(path.sep).join('/');
    const check = (node) => {
      const source = node.source?.value;
      if (typeof source !== 'string') return;
      const target = source.startsWith('.')
        ? path.posix.normalize(path.posix.join(path.posix.dirname(importer), source))
        : null;
      const message = importViolation(importer, source, target);
      if (message) context.report({ node: node.source, message });
    };
    return {
      ImportDeclaration: check,
      ImportExpression: check,
      ExportNamedDeclaration: check,
      ExportAllDeclaration: check,
    };
  },
};

export default { rules: { 'import-direction': importDirection } };
