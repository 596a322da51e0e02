/**
 * npm run bench:profile [-- --cold] [-- --runs N] [-- --trace] [-- --dist <dir>]
 *
 * Where a start-up's time goes: the warm offline start (or, with --cold, the cold one) of
 * `bench/startup.ts`, at 4x CPU, from the reload to the `dashboard-interactive` mark. Prints the
 * page's milestones (HTML, first paint, scripts received, marks), then either V8's sampling profile
 * (self time per file, heaviest functions, and functions with what they call; the last run's profile
 * is written to bench/results/startup.cpuprofile, which Chromium's DevTools open) or, with --trace,
 * the main thread's long tasks and its time per kind of work (parsing, style, layout, script). With
 * --dist, it serves another build: `npx vite build --outDir /tmp/dist-nomin --minify false` gives
 * functions their names.
 */
import fs from 'node:fs/promises';
import path from 'node:path';
import type { CDPSession, Page } from 'playwright-core';
import { PROJECT_ROOT } from '../tests/e2e/support/paths';
import { ensureBuild } from '../tests/e2e/support/server';
import {
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

/** The page's own milestones, from the Performance Timeline (relative to navigation start). */
async function milestones(page: Page): Promise<string[]> {
  return page.evaluate(() => {
    const lines: [number, string][] = [];
    const navigation = performance.getEntriesByType('navigation')[0] as PerformanceNavigationTiming;
    lines.push([navigation.responseEnd, 'HTML received']);
    lines.push([navigation.domInteractive, 'DOM interactive']);
    for (const paint of performance.getEntriesByType('paint')) lines.push([paint.startTime, paint.name]);
    for (const mark of performance.getEntriesByType('mark')) lines.push([mark.startTime, `mark ${mark.name}`]);
    for (const resource of performance.getEntriesByType('resource') as PerformanceResourceTiming[]) {
      if (resource.initiatorType === 'script' || resource.name.endsWith('.js'))
        lines.push([resource.responseEnd, `script received ${new URL(resource.name).pathname}`]);
    }
    return lines.sort((a, b) => a[0] - b[0]).map(([at, what]) => `${at.toFixed(0).padStart(6)} ms  ${what}`);
  });
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

/**
 * Self time per event kind on the main thread between navigation and the mark: the browser's own
 * work (parsing, style, layout, paint) beside script compilation and execution.
 */
function traceBreakdown(events: TraceEvent[]): { byKind: Map<string, number>; longTasks: string[] } {
  const { pid, tid } = mainThread(events);
  const onMain = events
    .filter((event) => event.pid === pid && event.tid === tid && event.ph === 'X' && event.dur !== undefined)
    .sort((a, b) => a.ts - b.ts || b.dur! - a.dur!);
  const navigation = events.find((event) => event.name === 'navigationStart' && event.pid === pid);
  const origin = navigation?.ts ?? onMain[0]?.ts ?? 0;
  const byKind = new Map<string, number>();
  const longTasks: string[] = [];
  const stack: { event: TraceEvent; end: number; childTime: number }[] = [];
  const close = (until: number) => {
    while (stack.length && stack.at(-1)!.end <= until) {
      const done = stack.pop()!;
      const self = (done.event.dur! - done.childTime) / 1000;
      const kind = kindOf(done.event);
      byKind.set(kind, (byKind.get(kind) ?? 0) + self);
      if (stack.length) stack.at(-1)!.childTime += done.event.dur!;
    }
  };
  for (const event of onMain) {
    if (event.ts < origin) continue;
    close(event.ts);
    if (event.name === 'RunTask' && event.dur! > 50_000)
      longTasks.push(
        `${((event.ts - origin) / 1000).toFixed(0).padStart(6)} ms  task of ${(event.dur! / 1000).toFixed(0)} ms`,
      );
    stack.push({ event, end: event.ts + event.dur!, childTime: 0 });
  }
  close(Infinity);
  return { byKind, longTasks };
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
      const page = cold ? await context.newPage() : first;
      const cdp = cold ? await forgetCode(page, portal.url) : await page.context().newCDPSession(page);
      if (!cold) await context.setOffline(true);
      await cdp.send('Emulation.setCPUThrottlingRate', { rate: TABLET_CPU_SLOWDOWN });
      const navigate = () => (cold ? page.goto(`${portal.url}/`) : page.reload());
      const title = `# run ${run + 1} (${cold ? 'cold' : 'warm offline'}, ${TABLET_CPU_SLOWDOWN}x CPU${trace ? ', traced' : ''})`;
      if (trace) {
        const { byKind, longTasks } = traceBreakdown(await traced(page, cdp, navigate));
        report(title, await milestones(page), {
          'long tasks': longTasks,
          'main thread self time by kind': top(byKind, 30),
        });
      } else {
        profile = await profiledStart(page, cdp, navigate);
        const byFile = selfTimes(profile, fileOf);
        const total = [...byFile.values()].reduce((sum, ms) => sum + ms, 0);
        report(title, await milestones(page), {
          [`self time by file (profiled ${total.toFixed(0)} ms)`]: top(byFile, 14),
          'heaviest functions': top(selfTimes(profile, functionOf), 20),
          'functions with what they call': top(
            totalTimes(profile, (node) => `${functionOf(node)}:${node.callFrame.lineNumber + 1}`),
            60,
          ),
        });
      }
      if (cold) await page.close();
      else await context.setOffline(false);
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
