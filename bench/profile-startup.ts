/**
 * npm run bench:profile [-- --cold] [-- --new-tab] [-- --runs N] [-- --trace] [-- --dist <dir>]
 *
 * Where a start-up's time goes: the warm offline start (or, with --cold, the cold one) of
 * `bench/startup.ts`, at 4x CPU, from the reload to the `dashboard-interactive` mark. Prints the
 * page's milestones (the navigation's timing, each script and style asked for and received, first
 * paint, marks), the service worker that answered (already running or started by the reload), what
 * the served HTML makes the browser wait for before a paint, then either V8's sampling profile
 * (self time per file, heaviest functions, and functions with what they call; the last run's profile
 * is written to bench/results/startup.cpuprofile, which Chromium's DevTools open) or, with --trace,
 * the main thread's long tasks and its time per kind of work (parsing, style, layout, script), and
 * the phases of the time to the first contentful paint and each task before it with what it did. With
 * --new-tab, each warm start opens the portal in a new tab instead of reloading one: no previous
 * document is unloaded in the navigation, as when the installed app is launched. With
 * --dist, it serves another build: `npx vite build --outDir /tmp/dist-nomin --minify false` gives
 * functions their names.
 */
import fs from 'node:fs/promises';
import path from 'node:path';
import type { BrowserContext, CDPSession, Page } from 'playwright-core';
import { prerenderedFile, shellVariantOf } from '../contract/shell';
import { DIST_DIR, PROJECT_ROOT } from '../tests/e2e/support/paths';
import { ensureBuild } from '../tests/e2e/support/server';
import {
  firstContentfulPaintAt,
  forgetCode,
  interactiveAt,
  launchBenchBrowser,
  newBenchContext,
  signInThroughForm,
  TABLET_CPU_SLOWDOWN,
  waitForServiceWorkerControl,
  warmCodeCache,
} from './lib/browser';
import { registerPartner, startBenchPortal } from './lib/portal';

interface ProfileNode {
  id: number;
  callFrame: { functionName: string; url: string; lineNumber: number; columnNumber: number };
  children?: number[];
}
interface CpuProfile {
  nodes: ProfileNode[];
  startTime: number;
  endTime: number;
  samples: number[];
  timeDeltas: number[];
}

const cold = process.argv.includes('--cold');
const newTab = process.argv.includes('--new-tab');
const trace = process.argv.includes('--trace');
const distArg = process.argv.indexOf('--dist');
const distDir = distArg >= 0 ? process.argv[distArg + 1] : undefined;
const runsArg = process.argv.indexOf('--runs');
const runs = runsArg >= 0 ? Number(process.argv[runsArg + 1]) : 3;

/** Self time (ms) of each profile node, from the samples. */
function selfTimeByNode(profile: CpuProfile): Map<number, number> {
  const self = new Map<number, number>();
  profile.samples.forEach((id, index) =>
    self.set(id, (self.get(id) ?? 0) + (profile.timeDeltas[index + 1] ?? 0) / 1000),
  );
  return self;
}

/** Self time (ms) per key. */
function selfTimes(profile: CpuProfile, keyOf: (node: ProfileNode) => string): Map<string, number> {
  const self = selfTimeByNode(profile);
  const totals = new Map<string, number>();
  for (const node of profile.nodes) {
    const key = keyOf(node);
    totals.set(key, (totals.get(key) ?? 0) + (self.get(node.id) ?? 0));
  }
  return totals;
}

/** Time (ms) spent in each function and what it called, recursion counted once. */
function totalTimes(profile: CpuProfile, keyOf: (node: ProfileNode) => string): Map<string, number> {
  const self = selfTimeByNode(profile);
  const byId = new Map(profile.nodes.map((node) => [node.id, node]));
  const totals = new Map<string, number>();
  const walk = (node: ProfileNode, open: Set<string>): number => {
    let total = self.get(node.id) ?? 0;
    const key = keyOf(node);
    const counted = open.has(key);
    const inner = counted ? open : new Set(open).add(key);
    for (const child of node.children ?? []) total += walk(byId.get(child)!, inner);
    if (!counted) totals.set(key, (totals.get(key) ?? 0) + total);
    return total;
  };
  walk(profile.nodes[0]!, new Set());
  return totals;
}

function fileOf(node: ProfileNode): string {
  const { url, functionName } = node.callFrame;
  if (!url) return functionName ? `(${functionName})` : '(native)';
  return new URL(url).pathname;
}

const functionOf = (node: ProfileNode) => `${node.callFrame.functionName || '(anonymous)'} ${fileOf(node)}`;

function top(map: Map<string, number>, count: number): string[] {
  return [...map.entries()]
    .sort((a, b) => b[1] - a[1])
    .slice(0, count)
    .map(([key, ms]) => `${ms.toFixed(0).padStart(6)} ms  ${key}`);
}

/**
 * The page's own milestones, from the Performance Timeline (relative to navigation start): the
 * navigation's timing (a service worker answers between workerStart and responseEnd), each script
 * and style from when it was asked for to when it was received, with whether Chromium held the
 * first paint for it, the paints and the marks.
 */
async function milestones(page: Page): Promise<string[]> {
  return page.evaluate(() => {
    const lines: [number, string][] = [];
    const navigation = performance.getEntriesByType('navigation')[0] as PerformanceNavigationTiming;
    const navigationSteps: [keyof PerformanceNavigationTiming, string][] = [
      ['unloadEventStart', "navigation: the previous page's unload handlers (unloadEventStart)"],
      ['unloadEventEnd', "navigation: the previous page's unload handlers done (unloadEventEnd)"],
      ['workerStart', 'navigation: the service worker asked for the page (workerStart)'],
      ['fetchStart', 'navigation: fetchStart'],
      ['responseStart', 'navigation: first byte of the HTML (responseStart)'],
      ['responseEnd', 'navigation: HTML received (responseEnd)'],
      ['domInteractive', 'navigation: HTML parsed (domInteractive)'],
      ['domContentLoadedEventStart', 'navigation: module scripts run, DOMContentLoaded (domContentLoadedEventStart)'],
      ['loadEventStart', 'navigation: load (loadEventStart)'],
    ];
    for (const [step, what] of navigationSteps) {
      const at = navigation[step];
      if (typeof at === 'number' && at > 0) lines.push([at, what]);
    }
    for (const paint of performance.getEntriesByType('paint')) lines.push([paint.startTime, paint.name]);
    for (const mark of performance.getEntriesByType('mark')) lines.push([mark.startTime, `mark ${mark.name}`]);
    // Scripts, styles and fonts; Chromium's render-blocking status (Resource Timing level 3; not in TypeScript's DOM library).
    const resources = performance.getEntriesByType('resource') as (PerformanceResourceTiming & {
      renderBlockingStatus?: string;
    })[];
    for (const resource of resources) {
      const { pathname } = new URL(resource.name);
      const kind = pathname.endsWith('.css')
        ? 'style'
        : /\.(woff2?|ttf|otf)$/.test(pathname)
          ? 'font'
          : resource.initiatorType === 'script' || pathname.endsWith('.js')
            ? 'script'
            : null;
      if (!kind) continue;
      const blocking = resource.renderBlockingStatus === 'blocking' ? ', render-blocking' : '';
      lines.push([
        resource.responseEnd,
        `${kind} received ${pathname} (asked at ${resource.startTime.toFixed(0)} ms, ` +
          `first byte ${resource.responseStart.toFixed(0)} ms${blocking})`,
      ]);
    }
    return lines.sort((a, b) => a[0] - b[0]).map(([at, what]) => `${at.toFixed(0).padStart(6)} ms  ${what}`);
  });
}

/**
 * The service worker's own clock origin: when its current instance started. One started after the
 * page's navigation began was booted by the reload, and its start-up is part of the wait for the HTML.
 */
async function serviceWorkerOrigin(context: BrowserContext): Promise<number | null> {
  const worker = context.serviceWorkers()[0];
  if (!worker) return null;
  return worker.evaluate(() => performance.timeOrigin).catch(() => null);
}

/** Whether the service worker that answered the reload was already running, and since when. */
async function serviceWorkerLines(page: Page, before: number | null): Promise<string[]> {
  const pageOrigin = await page.evaluate(() => performance.timeOrigin);
  const after = await serviceWorkerOrigin(page.context());
  if (after === null) return ['no service worker running after the start'];
  const offset = after - pageOrigin;
  const since = `started ${Math.abs(offset).toFixed(0)} ms ${offset < 0 ? 'before' : 'after'} navigation start`;
  if (before === null) return [`none running before the navigation; ${since}`];
  return [
    before === after
      ? `already running before the navigation (${since}): no start-up in the wait for the HTML`
      : `a new instance, booted by the navigation: ${since}`,
  ];
}

/**
 * What the served HTML asks of the browser before a paint: its size, the styles and scripts of its
 * head (a classic script without async or defer stops the parser; a style element is parsed and
 * applied before anything shows), preloads, `blocking="render"` and fonts. Read from the file the
 * service worker sent (the prerendered variant #root names), not from the document the app has
 * changed since.
 */
async function servedHtmlLines(page: Page): Promise<string[]> {
  const { pathname, shell } = await page.evaluate(() => ({
    pathname: location.pathname,
    shell: document.getElementById('root')?.dataset.shell,
  }));
  const [language, colorMode] = shell?.split('-') ?? [];
  const file = (shell && prerenderedFile(pathname, shellVariantOf(language, colorMode))) || 'index.html';
  // The file as the build wrote it (the worker keeps its copy under the build's revision, which a
  // fetch from the page does not name): read here, parsed in the page.
  const servedHtml = await fs.readFile(path.join(distDir ?? DIST_DIR, file), 'utf8');
  // Plain data out of the page, sorted here: the page's function must not name inner functions
  // (tsx wraps named ones in a helper the page does not have).
  const served = await page.evaluate(async (html) => {
    const document = new DOMParser().parseFromString(html, 'text/html');
    const root = document.getElementById('root');
    return {
      htmlLength: html.length,
      headLength: document.head.outerHTML.length,
      rootLength: root?.outerHTML.length ?? 0,
      rootElements: root?.querySelectorAll('*').length ?? 0,
      fontFaces: (html.match(/@font-face/g) ?? []).length,
      elements: Array.from(document.querySelectorAll('style, script, link, [blocking]')).map((element) => ({
        tag: element.outerHTML.replace(/>[\s\S]*$/, '>'),
        inHead: element.parentElement === document.head,
        textLength: element.textContent?.length ?? 0,
      })),
    };
  }, servedHtml);
  const kb = (length: number) => `${(length / 1024).toFixed(1)} KB`;
  const tagsWhere = (test: RegExp, untrue?: RegExp) =>
    served.elements
      .filter(({ tag }) => test.test(tag) && !untrue?.test(tag))
      .map(({ tag }) => tag.slice(0, 120))
      .join(', ') || 'none';
  const headStyles = served.elements.filter(({ tag, inHead }) => inHead && tag.startsWith('<style'));
  const styleLengths = headStyles.map(({ textLength }) => textLength);
  const inlineScripts = served.elements.filter(({ tag }) => tag.startsWith('<script') && !/\ssrc=/.test(tag));
  return [
    `${kb(served.htmlLength)} of HTML: head ${kb(served.headLength)}, #root ${kb(served.rootLength)} with ${served.rootElements} elements`,
    `${headStyles.length} style elements in the head, ${kb(styleLengths.reduce((total, length) => total + length, 0))} of CSS (largest ${kb(Math.max(0, ...styleLengths))}); stylesheets: ${tagsWhere(/rel="stylesheet"/)}`,
    `module scripts: ${tagsWhere(/^<script[^>]*type="module"/)}`,
    `parser-blocking scripts: ${tagsWhere(/^<script[^>]*\ssrc=/, /type="module"|\sasync|\sdefer/)}; inline scripts: ${inlineScripts.length}`,
    `preloads: ${tagsWhere(/rel="(modulepreload|preload)"/)}`,
    `render-blocking: ${tagsWhere(/blocking="[^"]*render/)}`,
    `fonts: ${tagsWhere(/as="font"/)}; @font-face rules: ${served.fontFaces}`,
  ].map((line) => `${file}: ${line}`);
}

interface TraceEvent {
  name: string;
  ph: string;
  ts: number;
  dur?: number;
  pid: number;
  tid: number;
  args?: { name?: string; data?: { url?: string; functionName?: string } };
}

const TRACE_CATEGORIES = [
  '-*',
  'devtools.timeline',
  'disabled-by-default-devtools.timeline',
  'v8.execute',
  'blink.user_timing',
  // DocumentLoader's events: where the navigation commits and the new document's parser is made.
  'loading',
  '__metadata',
].join(',');

async function traced(page: Page, cdp: CDPSession, start: () => Promise<unknown>): Promise<TraceEvent[]> {
  const events: TraceEvent[] = [];
  cdp.on('Tracing.dataCollected', ({ value }) => events.push(...(value as unknown as TraceEvent[])));
  const complete = new Promise<void>((resolve) => cdp.once('Tracing.tracingComplete', () => resolve()));
  await cdp.send('Tracing.start', { categories: TRACE_CATEGORIES, transferMode: 'ReportEvents' });
  await start();
  await interactiveAt(page);
  await cdp.send('Tracing.end');
  await complete;
  return events;
}

/** The renderer's main thread of the page's process: where the mark was set. */
function mainThread(events: TraceEvent[]): { pid: number; tid: number } {
  const mark = events.find((event) => event.name === 'dashboard-interactive');
  if (mark) return { pid: mark.pid, tid: mark.tid };
  const main = events.find((event) => event.name === 'thread_name' && event.args?.name === 'CrRendererMain');
  return { pid: main!.pid, tid: main!.tid };
}

const inMs = (microseconds: number) => (microseconds / 1000).toFixed(0);

/** "ParseHTML 30 ms, UpdateLayoutTree 12 ms" for the heaviest kinds of one task's work. */
function heaviestKinds(kinds: Map<string, number>, count: number): string {
  return [...kinds.entries()]
    .sort((a, b) => b[1] - a[1])
    .filter(([, self]) => self >= 1)
    .slice(0, count)
    .map(([kind, self]) => `${kind} ${self.toFixed(0)} ms`)
    .join(', ');
}

/**
 * Self time per event kind on the main thread between navigation and the mark: the browser's own
 * work (parsing, style, layout, paint) beside script compilation and execution. And, before the
 * first contentful paint (ms since navigation start), each task with what it did and the time the
 * main thread sat idle, waiting for something else (the service worker, a script).
 */
function traceBreakdown(
  events: TraceEvent[],
  firstPaintMs: number,
): { byKind: Map<string, number>; longTasks: string[]; beforePaint: string[]; phases: string[] } {
  const { pid, tid } = mainThread(events);
  const onMain = events
    .filter((event) => event.pid === pid && event.tid === tid && event.ph === 'X' && event.dur !== undefined)
    .sort((a, b) => a.ts - b.ts || b.dur! - a.dur!);
  const navigation = events.find((event) => event.name === 'navigationStart' && event.pid === pid);
  const origin = navigation?.ts ?? onMain[0]?.ts ?? 0;
  const paintAt = origin + firstPaintMs * 1000;
  const byKind = new Map<string, number>();
  const longTasks: string[] = [];
  /** The tasks begun before the first paint, each with its self time per kind. */
  const tasksBeforePaint = new Map<TraceEvent, Map<string, number>>();
  type Frame = { event: TraceEvent; end: number; childTime: number; task: TraceEvent };
  const stack: Frame[] = [];
  const close = (until: number) => {
    while (stack.length && stack.at(-1)!.end <= until) {
      const done = stack.pop()!;
      const self = (done.event.dur! - done.childTime) / 1000;
      const kind = kindOf(done.event);
      byKind.set(kind, (byKind.get(kind) ?? 0) + self);
      const taskKinds = tasksBeforePaint.get(done.task);
      taskKinds?.set(kind, (taskKinds.get(kind) ?? 0) + self);
      if (stack.length) stack.at(-1)!.childTime += done.event.dur!;
    }
  };
  for (const event of onMain) {
    if (event.ts < origin) continue;
    close(event.ts);
    if (event.name === 'RunTask' && event.dur! > 50_000)
      longTasks.push(`${inMs(event.ts - origin).padStart(6)} ms  task of ${inMs(event.dur!)} ms`);
    const task = stack[0]?.event ?? event;
    if (task === event && event.ts < paintAt) tasksBeforePaint.set(event, new Map());
    stack.push({ event, end: event.ts + event.dur!, childTime: 0, task });
  }
  close(Infinity);

  const beforePaint: string[] = [];
  let busy = 0;
  let short = { count: 0, total: 0 };
  for (const [task, kinds] of tasksBeforePaint) {
    const end = Math.min(task.ts + task.dur!, paintAt);
    busy += end - task.ts;
    if (task.dur! < 3000) {
      short = { count: short.count + 1, total: short.total + task.dur! };
      continue;
    }
    beforePaint.push(
      `${inMs(task.ts - origin).padStart(6)} ms  task of ${inMs(task.dur!)} ms: ${heaviestKinds(kinds, 5)}`,
    );
  }
  beforePaint.push(
    `${short.count} shorter tasks, ${inMs(short.total)} ms in all`,
    `main thread busy ${inMs(busy)} ms and idle ${inMs(paintAt - origin - busy)} ms of the ${firstPaintMs.toFixed(0)} ms to the first contentful paint`,
  );
  return { byKind, longTasks, beforePaint, phases: phasesToPaint(tasksBeforePaint, origin, paintAt) };
}

/**
 * The time to the first contentful paint in its phases, from the main thread's tasks: until the
 * navigation's commit (the previous page's last work, the wait for the HTML), the commit (the task
 * that makes the new document, its window and its parser; a reload unloads the previous one in
 * it), receiving and parsing the HTML (and, when the parser finished before a frame, the app's
 * module run at once), the first frame (the task that styles, lays out and paints it) and the wait
 * for it to be presented. Each with the heaviest work of the tasks done within it.
 */
function phasesToPaint(tasks: Map<TraceEvent, Map<string, number>>, origin: number, paintAt: number): string[] {
  const list = [...tasks.keys()];
  const parserMaking = (task: TraceEvent) => tasks.get(task)!.get('DocumentLoader::CreateParserPostCommit') ?? 0;
  // The navigation's commit can be split over a few tasks: the one that made most of the parser.
  const commit = list.reduce<TraceEvent | undefined>(
    (best, task) => (parserMaking(task) > (best ? parserMaking(best) : 0) ? task : best),
    undefined,
  );
  // The frame that was presented ended before the paint's time; a task still running then is later work.
  const frame = list
    .filter(
      (task) => task.ts > (commit?.ts ?? origin) && task.ts + task.dur! <= paintAt && tasks.get(task)!.has('Paint'),
    )
    .at(-1);
  if (!commit || !frame) return ['no commit or no painted frame found before the first contentful paint'];
  const total = paintAt - origin;
  const phase = (from: number, to: number, what: string) => {
    const kinds = new Map<string, number>();
    // Only tasks done within the phase: the app's module starts before the frame is presented and runs on.
    for (const task of list.filter((task) => task.ts >= from && task.ts + task.dur! <= to))
      for (const [kind, self] of tasks.get(task)!) kinds.set(kind, (kinds.get(kind) ?? 0) + self);
    const work = heaviestKinds(kinds, 3);
    return `${inMs(to - from).padStart(6)} ms  ${((100 * (to - from)) / total).toFixed(0).padStart(3)} %  ${what}${work ? ` (${work})` : ''}`;
  };
  const commitEnd = commit.ts + commit.dur!;
  const frameEnd = frame.ts + frame.dur!;
  const modulesBeforePaint = list
    .filter((task) => task.ts >= commit.ts && task.ts + task.dur! <= paintAt)
    .reduce((total, task) => total + (tasks.get(task)!.get('v8.evaluateModule') ?? 0), 0);
  return [
    phase(origin, commit.ts, "until the navigation commits (the previous page's last work, the HTML from the worker)"),
    phase(
      commit.ts,
      commitEnd,
      'the commit (the new document, its window and its parser made; a reload unloads the old)',
    ),
    phase(commitEnd, frame.ts, 'receiving and parsing the HTML'),
    phase(frame.ts, frameEnd, 'the first frame'),
    phase(frameEnd, paintAt, 'until the frame is presented'),
    // The module script runs once the HTML is parsed: when that comes before a frame, the paint waits for it.
    modulesBeforePaint > 0
      ? `the app's modules ran before the first paint: ${modulesBeforePaint.toFixed(0)} ms of module evaluation`
      : "the app's modules ran after the first paint",
  ];
}

function kindOf(event: TraceEvent): string {
  const url = event.args?.data?.url;
  const script = url ? ` ${url.startsWith('http') ? new URL(url).pathname : url}` : '';
  if (['EvaluateScript', 'v8.compile', 'v8.compileModule', 'v8.evaluateModule', 'FunctionCall'].includes(event.name))
    return `${event.name}${script}`;
  return event.name;
}

async function profiledStart(page: Page, cdp: CDPSession, start: () => Promise<unknown>): Promise<CpuProfile> {
  await cdp.send('Profiler.enable');
  await cdp.send('Profiler.setSamplingInterval', { interval: 200 });
  await cdp.send('Profiler.start');
  await start();
  await interactiveAt(page);
  const { profile } = (await cdp.send('Profiler.stop')) as unknown as { profile: CpuProfile };
  return profile;
}

/**
 * The service worker that answered (none on a cold start, which clears it: the page comes from the
 * network), and, at the first run, what the served HTML holds.
 */
async function startSections(
  page: Page,
  workerBefore: number | null | undefined,
  run: number,
): Promise<Record<string, string[]>> {
  return {
    'service worker':
      workerBefore === undefined
        ? ['cleared before the cold start: the page and its scripts came from the network']
        : await serviceWorkerLines(page, workerBefore),
    ...(run === 0 ? { 'the served HTML, before a paint': await servedHtmlLines(page) } : {}),
  };
}

function report(title: string, milestoneLines: string[], sections: Record<string, string[]>): void {
  const body = Object.entries(sections).map(([heading, lines]) => `\n${heading}:\n${lines.join('\n')}`);
  process.stdout.write(`\n${title}\n${milestoneLines.join('\n')}\n${body.join('\n')}\n`);
}

async function main() {
  if (!distDir) await ensureBuild();
  const portal = await startBenchPortal('pglite', { distDir });
  const browser = await launchBenchBrowser();
  try {
    const account = await registerPartner(portal.url, 'profile');
    const context = await newBenchContext(browser);
    const first = await context.newPage();
    await signInThroughForm(first, portal.url, account);
    await waitForServiceWorkerControl(first);
    await interactiveAt(first);
    if (!cold) await warmCodeCache(first);
    let profile: CpuProfile | null = null;
    for (let run = 0; run < runs; run++) {
      const page = cold || newTab ? await context.newPage() : first;
      const cdp = cold ? await forgetCode(page, portal.url) : await page.context().newCDPSession(page);
      if (!cold) await context.setOffline(true);
      await cdp.send('Emulation.setCPUThrottlingRate', { rate: TABLET_CPU_SLOWDOWN });
      const navigate = () => (cold || newTab ? page.goto(`${portal.url}/`) : page.reload());
      const workerBefore = cold ? undefined : await serviceWorkerOrigin(context);
      const title = `# run ${run + 1} (${cold ? 'cold' : 'warm offline'}${newTab ? ', new tab' : ''}, ${TABLET_CPU_SLOWDOWN}x CPU${trace ? ', traced' : ''})`;
      if (trace) {
        const events = await traced(page, cdp, navigate);
        const firstPaintMs = await firstContentfulPaintAt(page);
        const { byKind, longTasks, beforePaint, phases } = traceBreakdown(events, firstPaintMs);
        report(title, await milestones(page), {
          ...(await startSections(page, workerBefore, run)),
          'phases to the first contentful paint (main thread)': phases,
          'main thread before the first contentful paint (tasks of 3 ms or more, their heaviest work)': beforePaint,
          'long tasks': longTasks,
          'main thread self time by kind': top(byKind, 30),
        });
      } else {
        profile = await profiledStart(page, cdp, navigate);
        const byFile = selfTimes(profile, fileOf);
        const total = [...byFile.values()].reduce((sum, ms) => sum + ms, 0);
        report(title, await milestones(page), {
          ...(await startSections(page, workerBefore, run)),
          [`self time by file (profiled ${total.toFixed(0)} ms)`]: top(byFile, 14),
          'heaviest functions': top(selfTimes(profile, functionOf), 20),
          'functions with what they call': top(
            totalTimes(profile, (node) => `${functionOf(node)}:${node.callFrame.lineNumber + 1}`),
            60,
          ),
        });
      }
      if (cold || newTab) await page.close();
      if (!cold) await context.setOffline(false);
    }
    if (profile) {
      const out = path.join(PROJECT_ROOT, 'bench', 'results', 'startup.cpuprofile');
      await fs.writeFile(out, JSON.stringify(profile));
      process.stdout.write(`\nprofile written to ${path.relative(PROJECT_ROOT, out)}\n`);
    }
  } finally {
    await browser.close();
    await portal.stop();
  }
}

await main();
