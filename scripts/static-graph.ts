/**
 * The modules a given module imports statically, directly or not, known once the build has parsed
 * every module: for a chunk group that gathers the app's start (src/boot.tsx) and everything it
 * needs into one file, the way the `$initial` tag does for the page's own entry.
 */
import path from 'node:path';
import type { Plugin } from 'vite';

export interface StaticGraph {
  plugin: Plugin;
  /** Whether the module (a resolved id) is the root or one of its static imports. */
  has(id: string): boolean;
}

/** `root` is relative to the project's root (`src/boot.tsx`). */
export function staticGraphOf(root: string): StaticGraph {
  const members = new Set<string>();
  let rootId = '';
  return {
    has: (id) => members.has(id),
    plugin: {
      name: 'garage:static-graph',
      apply: 'build',
      configResolved(config) {
        rootId = path.resolve(config.root, root);
      },
      buildEnd() {
        members.clear();
        if (!this.getModuleInfo(rootId)) return; // another build (the prerender's) without this module
        const pending = [rootId];
        while (pending.length > 0) {
          const id = pending.pop()!;
          if (members.has(id)) continue;
          members.add(id);
          pending.push(...(this.getModuleInfo(id)?.importedIds ?? []));
        }
      },
    },
  };
}
