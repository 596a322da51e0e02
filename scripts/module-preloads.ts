/**
 * What a prerendered page asks the browser to fetch and compile ahead (`<link rel="modulepreload">`),
 * without running it (docs/ARCHITECTURE.md#start-up): the code of the screen it shows. Without it the
 * screen's chunk and the files it imports would be asked for only once the shell had run: a round trip
 * more on a tablet with no code cached yet.
 */

/** A chunk of the browser build: its name and the files it imports statically. */
export interface BuiltChunk {
  name: string;
  isEntry: boolean;
  imports: readonly string[];
}

/** The browser build's chunks by file name (as Rolldown's bundle gives them). */
export type ChunkGraph = ReadonlyMap<string, BuiltChunk>;

/** The files `roots` need before they can run: themselves and what they import, however deep. */
export function importClosure(graph: ChunkGraph, roots: readonly string[]): string[] {
  const found = new Set<string>();
  const visit = (file: string) => {
    if (found.has(file)) return;
    found.add(file);
    for (const imported of graph.get(file)?.imports ?? []) visit(imported);
  };
  roots.forEach(visit);
  return [...found];
}

/** The file of the lazily loaded chunk named `name`; the build fails when there is none. */
export function chunkFile(graph: ChunkGraph, name: string): string {
  for (const [file, chunk] of graph) if (chunk.name === name && !chunk.isEntry) return file;
  throw new Error(`the build has no chunk named ${name}`);
}

/** The chunk of a prerendered page's screen: `forgot-password` is ForgotPasswordPage's. */
export function screenChunkName(page: string): string {
  const words = page.split('-').map((word) => word.charAt(0).toUpperCase() + word.slice(1));
  return `${words.join('')}Page`;
}

const HEAD_END = '</head>';

/** The page with a modulepreload link, at the end of its head, for each of `files` it does not link yet. */
export function withModulePreloads(html: string, files: readonly string[]): string {
  if (!html.includes(HEAD_END)) throw new Error('a page without </head> for its module preloads');
  const links = files
    .map((file) => `/${file}`)
    .filter((href) => !html.includes(`href="${href}"`))
    .map((href) => `<link rel="modulepreload" crossorigin href="${href}">`);
  return html.replace(HEAD_END, () => `${links.join('')}${HEAD_END}`);
}
