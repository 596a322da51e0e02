/**
 * The prerendered first screens in the service worker (docs/ARCHITECTURE.md#prerendered-first-screens):
 * the build makes 24 (four pages, three languages, light and dark: about 2 MB), a tablet shows one
 * variant. So they are not precached whole: at install the worker keeps the four pages of the variant
 * the tablet's cookies name, and the page asks for another one when its language or colours change
 * (KEEP_SHELL_VARIANT_MESSAGE). A navigation to a variant not kept takes it from the network and keeps
 * it; offline, the plain shell (index.html) answers, painted by the app instead of the HTML.
 * Each page is kept under its build revision, so an update fetches only the pages that changed.
 */
import { PRERENDERED_DIR, PRERENDERED_PAGES, prerenderedFile, type ShellVariant } from '../../contract/shell';

export const SHELLS_CACHE = 'prerendered-shells-v1';

interface ManifestEntry {
  url: string;
  revision?: string | null;
}

/** Whether a precache manifest entry is a prerendered page (kept here, not by the precache). */
export function isPrerenderedEntry(entry: string | ManifestEntry): boolean {
  return (typeof entry === 'string' ? entry : entry.url).startsWith(`${PRERENDERED_DIR}/`);
}

/** Each prerendered page's path and its build revision, from the precache manifest. */
export function shellRevisions(manifest: readonly (string | ManifestEntry)[]): Map<string, string> {
  const revisions = new Map<string, string>();
  for (const entry of manifest) {
    if (typeof entry !== 'string' && isPrerenderedEntry(entry)) revisions.set(`/${entry.url}`, entry.revision ?? '');
  }
  return revisions;
}

export class ShellKeeper {
  constructor(private readonly revisions: ReadonlyMap<string, string>) {}

  /** The cache key of a page in this build: its path and its revision. */
  private key(path: string): string | null {
    const revision = this.revisions.get(path);
    return revision === undefined ? null : `${path}?__shell_revision=${revision}`;
  }

  /** Fetches and keeps a page of this build; the answer, or null when it cannot be had. */
  private async fetchAndKeep(cache: Cache, path: string, key: string): Promise<Response | null> {
    const answer = await fetch(path, { cache: 'no-cache' }).catch(() => null);
    if (!answer?.ok) return null;
    await cache.put(key, answer.clone());
    return answer;
  }

  /** Keeps the four pages of a variant (those already kept for this build are not fetched again). */
  async keep(variant: ShellVariant): Promise<void> {
    const cache = await caches.open(SHELLS_CACHE);
    await Promise.all(
      Object.keys(PRERENDERED_PAGES).map(async (pathname) => {
        const file = prerenderedFile(pathname, variant);
        const key = file && this.key(`/${file}`);
        if (file && key && !(await cache.match(key))) await this.fetchAndKeep(cache, `/${file}`, key);
      }),
    );
  }

  /** The page for a navigation: kept, or from the network (then kept); null offline when not kept. */
  async page(file: string): Promise<Response | null> {
    const key = this.key(`/${file}`);
    if (!key) return null;
    const cache = await caches.open(SHELLS_CACHE);
    return (await cache.match(key)) ?? (await this.fetchAndKeep(cache, `/${file}`, key));
  }

  /** Drops the pages of other builds (on activation: the running worker no longer needs them). */
  async dropOthers(): Promise<void> {
    const cache = await caches.open(SHELLS_CACHE);
    const current = new Set([...this.revisions.keys()].map((path) => this.key(path)));
    for (const request of await cache.keys()) {
      const url = new URL(request.url);
      if (!current.has(`${url.pathname}${url.search}`)) await cache.delete(request);
    }
  }
}
