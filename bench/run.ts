/**
 * npm run bench [-- --quick] [-- --only first-load,startup,...]
 *
 * Measures the portal where it matters to a mechanic (issue 5) and writes bench/results/latest.json
 * and latest.md (with --quick: quick.json and quick.md). Every figure is the median of its runs; the
 * report names the machine and the run counts. Uses the PWA built in dist/ (run `npx vite build`
 * after changing src/), the real server on loopback, the system Chromium and, for figure 5, the
 * PostgreSQL server at 127.0.0.1:5432.
 */
import { execFileSync } from 'node:child_process';
import fs from 'node:fs/promises';
import path from 'node:path';
import { PROJECT_ROOT } from '../tests/e2e/support/paths';
import { ensureBuild } from '../tests/e2e/support/server';
import { measureApiLoad, ENDPOINTS } from './api-load';
import { budgetViolations, BUDGETS, CEILINGS, KB, measureFirstLoad, type LoadSet } from './first-load';
import { measureHistory, type HistoryRun } from './history';
import { LIGHTHOUSE_CATEGORIES, measureLighthouse } from './lighthouse';
import { BENCHMARKS, parseArgs, type BenchmarkName } from './lib/args';
import { prepareBaseline, type Baseline } from './lib/baseline';
import { launchBenchBrowser, TABLET_CPU_SLOWDOWN } from './lib/browser';
import { loadAverage, machineInfo, waitForQuietCpu } from './lib/machine';
import { DEMO_PARTNER, startBenchPortal, type BenchPortal } from './lib/portal';
import { figure, figureOf, kb, repeat, round, type Figure } from './lib/stats';
import { ENGINE_CONCURRENCY, measureDrain } from './outbox-drain';
import { renderMarkdown, renderSummary, type Report } from './report';
import { measurePhoto } from './photo';
import { measurePhotoLoad, PHOTO_LOAD_GOALS } from './photo-load';
import { measurePrecache, PRECACHE_GOAL_KB } from './precache';
import { measureStartup, type StartupRuns } from './startup';
import { measureUpdateDownload, UPDATE_DOWNLOAD_GOAL_KB } from './update-download';

const options = parseArgs(process.argv.slice(2));
const quick = options.quick;

/** Run counts and sizes: the full run stays well under 15 minutes on a 2-core machine. */
const PLAN = quick
  ? {
      firstLoadRuns: 1,
      startupRuns: 2,
      photoRuns: 1,
      drainRuns: 1,
      drainEntries: 100,
      historyRuns: 1,
      historySynced: 500,
      historyQueued: 50,
      apiRuns: 1,
      apiDurationS: 2,
      apiConnections: 10,
      photoLoadDurationS: 3,
      lighthouseRuns: 1,
    }
  : {
      firstLoadRuns: 3,
      startupRuns: 7,
      photoRuns: 5,
      drainRuns: 3,
      drainEntries: 1000,
      historyRuns: 5,
      historySynced: 5000,
      historyQueued: 200,
      apiRuns: 3,
      apiDurationS: 10,
      apiConnections: 10,
      photoLoadDurationS: 10,
      lighthouseRuns: 3,
    };

/** Issue 44's flood: what one garage's tablets (or a script with its token) can keep in flight. */
const PHOTO_FLOOD = { readers: 200, uploaders: 40 } as const;

const log = (line: string) => process.stdout.write(`${line}\n`);

/** The start-up goals: a typeable dashboard at 4x CPU, and typing that answers within a frame or so. */
const STARTUP_GOALS = { coldMs: 1500, warmOfflineMs: 600, typingInpMs: 100, firstPaintTypingMs: 100 } as const;
const LIGHTHOUSE_GOALS = { performance: 90, accessibility: 100, 'best-practices': 100 } as const;
/** Rounds of alternating measurement when the previous commit is measured beside this one. */
const COMPARISON_ROUNDS = 2;
/** Steps measured beside the previous commit: waits a change to the PWA's own code can lengthen or shorten. */
const COMPARED_STEPS: readonly BenchmarkName[] = ['startup', 'history', 'lighthouse'];

function gitDescribe(): string | null {
  try {
    const commit = execFileSync('git', ['rev-parse', '--short', 'HEAD'], {
      cwd: PROJECT_ROOT,
      encoding: 'utf8',
    }).trim();
    const dirty = execFileSync('git', ['status', '--porcelain'], { cwd: PROJECT_ROOT, encoding: 'utf8' }).trim();
    return dirty ? `${commit} (with uncommitted changes)` : commit;
  } catch {
    return null;
  }
}

/**
 * Starts a fresh portal (its own database and in-memory rate limits) for one benchmark; with a
 * baseline, the portal serves that commit's PWA.
 */
async function withPortal<T>(body: (portal: BenchPortal) => Promise<T>, baseline?: Baseline): Promise<T> {
  const portal = await startBenchPortal('pglite', { distDir: baseline?.distDir });
  try {
    return await body(portal);
  } finally {
    await portal.stop();
  }
}

function loadSummary(sets: LoadSet[]) {
  const last = sets.at(-1)!;
  return {
    jsGzipKb: figureOf(sets, (set) => set.jsGzipBytes / KB, 'KB', 1),
    cssGzipKb: figureOf(sets, (set) => set.cssGzipBytes / KB, 'KB', 1),
    jsKb: kb(last.jsBytes),
    wireKb: kb(last.wireBytes),
    chunks: last.chunks.map((chunk) => ({
      file: chunk.file,
      type: chunk.type,
      gzipKb: kb(chunk.gzipBytes),
      lazy: chunk.lazy,
    })),
  };
}

type LighthousePages = Awaited<ReturnType<typeof measureLighthouse>>;

function lighthouseSummary(pages: LighthousePages): NonNullable<Report['lighthouse']>['pages'] {
  const summary: NonNullable<Report['lighthouse']>['pages'] = {};
  for (const [pageName, runs] of Object.entries(pages)) {
    const scores: Record<string, Figure> = {};
    for (const category of LIGHTHOUSE_CATEGORIES) {
      scores[category] = figureOf(runs, (run) => run.scores[category], '');
    }
    summary[pageName] = { scores, failingAudits: [...new Set(runs.flatMap((run) => run.failing))] };
  }
  return summary;
}

const README_START = '<!-- bench-summary:start -->';
const README_END = '<!-- bench-summary:end -->';

async function updateReadme(summary: string): Promise<void> {
  const file = path.join(PROJECT_ROOT, 'README.md');
  const text = await fs.readFile(file, 'utf8');
  const start = text.indexOf(README_START);
  const end = text.indexOf(README_END);
  if (start < 0 || end < start) throw new Error(`README.md lacks the ${README_START} … ${README_END} markers`);
  await fs.writeFile(file, `${text.slice(0, start + README_START.length)}\n${summary}\n${text.slice(end)}`);
}

async function main() {
  const started = Date.now();
  const machine = machineInfo();
  log(
    `bench${quick ? ' --quick' : ''}: ${machine.cpuModel}, ${machine.cores} cores, ${machine.memoryGb} GB, Node ${machine.node}, load ${machine.loadAverageAtStart}`,
  );
  if (machine.loadAverageAtStart >= 1) log(`  note: the machine is busy (load average ${machine.loadAverageAtStart})`);
  await ensureBuild();
  const report: Report = {
    generatedAt: new Date().toISOString(),
    quick,
    commit: gitDescribe(),
    machine,
    plan: PLAN,
    durationS: 0,
    errors: {},
  };
  // The previous commit's PWA, measured beside this one in the timed steps.
  let baseline: Baseline | null = null;
  if (options.baseline && COMPARED_STEPS.some((name) => options.only.has(name))) {
    try {
      baseline = prepareBaseline(options.baseline, log);
      report.baselineCommit = baseline.commit;
    } catch (error) {
      const message = error instanceof Error ? error.message : String(error);
      report.baselineProblem = message;
      log(`  no comparison: ${message}`);
    }
  }
  const browser = await launchBenchBrowser();
  report.machine.chromium = browser.version();

  /**
   * Runs `measure` on this commit's portal and, with a baseline, on the previous commit's, in
   * alternate rounds (this, previous, this, previous…): a machine that warms up or gets busier during
   * the run then weighs on both alike.
   */
  const interleaved = async <T>(
    measure: (portal: BenchPortal, runsOf: (total: number) => number) => Promise<T>,
  ): Promise<{ current: T[]; previous?: { commit: string; runs: T[] } }> => {
    const base = baseline;
    return withPortal(async (portal) => {
      if (!base) return { current: [await measure(portal, (total) => total)] };
      const perRound = (total: number) => Math.ceil(total / COMPARISON_ROUNDS);
      return withPortal(async (basePortal) => {
        const current: T[] = [];
        const previous: T[] = [];
        for (let round = 0; round < COMPARISON_ROUNDS; round++) {
          current.push(await measure(portal, perRound));
          previous.push(await measure(basePortal, perRound));
        }
        return { current, previous: { commit: base.commit, runs: previous } };
      }, base);
    });
  };

  const step = async (name: BenchmarkName, body: () => Promise<void>) => {
    if (!options.only.has(name)) return;
    const waitedMs = await waitForQuietCpu();
    const t0 = Date.now();
    log(`${name}… (after ${round(waitedMs / 1000)} s for the CPU to be quiet)`);
    try {
      await body();
      log(`${name} done in ${round((Date.now() - t0) / 1000)} s`);
    } catch (error) {
      const message = error instanceof Error ? (error.stack ?? error.message) : String(error);
      report.errors[name] = message.split('\n').slice(0, 6).join('\n');
      log(`${name} FAILED: ${message}`);
    }
  };

  try {
    await step('first-load', () =>
      withPortal(async (portal) => {
        const loads = await repeat(PLAN.firstLoadRuns, () => measureFirstLoad(browser, portal.url, DEMO_PARTNER));
        const last = loads.at(-1)!;
        report.firstLoad = {
          runs: loads.length,
          login: loadSummary(loads.map((load) => load.login)),
          dashboard: loadSummary(loads.map((load) => load.dashboard)),
          signInJourney: loadSummary(loads.map((load) => load.signInJourney)),
          dashboardFirstScreen: loadSummary(loads.map((load) => load.dashboardFirstScreen)),
          firstScreenBudgetJsGzipKb: BUDGETS.dashboardFirstScreenJsGzip / KB,
          loginBudgetJsGzipKb: BUDGETS.loginJsGzip / KB,
          dashboardCeilingJsGzipKb: CEILINGS.dashboardJsGzip / KB,
          journeyCeilingJsGzipKb: CEILINGS.signInJourneyJsGzip / KB,
          violations: budgetViolations(last),
        };
      }),
    );

    await step('startup', async () => {
      const rounds = await interleaved((portal, runsOf) =>
        measureStartup(browser, portal.url, runsOf(PLAN.startupRuns)),
      );
      const figures = (runs: StartupRuns[]) => {
        const of = (name: keyof StartupRuns) =>
          figure(
            runs.flatMap((run) => run[name]),
            'ms',
          );
        return {
          coldMs: of('coldMs'),
          coldPaintMs: of('coldPaintMs'),
          warmOfflineMs: of('warmOfflineMs'),
          warmOfflinePaintMs: of('warmOfflinePaintMs'),
          typingInpMs: of('typingInpMs'),
          firstPaintTypingMs: of('firstPaintTypingMs'),
          firstPaintTypingLost: runs.reduce(
            (total, run) => total + run.firstPaintTypingLost.reduce((sum, lost) => sum + lost, 0),
            0,
          ),
        };
      };
      report.startup = {
        runs: rounds.current.reduce((total, run) => total + run.coldMs.length, 0),
        cpuSlowdown: TABLET_CPU_SLOWDOWN,
        ...figures(rounds.current),
        goals: STARTUP_GOALS,
        previous: rounds.previous ? { commit: rounds.previous.commit, ...figures(rounds.previous.runs) } : undefined,
      };
    });

    await step('photo', () =>
      withPortal(async (portal) => {
        const runs = await measurePhoto(browser, portal.url, PLAN.photoRuns);
        report.photo = {
          runs: runs.encodeMs.length,
          cpuSlowdown: TABLET_CPU_SLOWDOWN,
          encodeMs: figure(runs.encodeMs, 'ms'),
          typingInpMs: figure(runs.typingInpMs, 'ms'),
          idleTypingInpMs: figure(runs.idleTypingInpMs, 'ms'),
          keptKb: figure(
            runs.bytes.map((bytes) => bytes / KB),
            'KB',
            1,
          ),
          longSidePx: Math.max(...runs.longSidePx),
          goals: { typingInpMs: STARTUP_GOALS.typingInpMs },
        };
      }),
    );

    await step('outbox-drain', () =>
      withPortal(async (portal) => {
        const runs = await repeat(PLAN.drainRuns, async (run) => {
          const result = await measureDrain(browser, portal.url, PLAN.drainEntries);
          log(
            `  run ${run + 1}: ${result.entries} in ${result.drainMs} ms = ${result.clientPerSecond.toFixed(0)}/s; server ${result.serverPerSecond.toFixed(0)}/s; once ${result.storedOnce}, order ${result.orderKept}`,
          );
          return result;
        });
        report.outboxDrain = {
          runs: runs.length,
          entries: PLAN.drainEntries,
          concurrency: ENGINE_CONCURRENCY,
          drainMs: figureOf(runs, (run) => run.drainMs, 'ms'),
          clientPerSecond: figureOf(runs, (run) => run.clientPerSecond, 'entries/s', 1),
          serverPerSecond: figureOf(runs, (run) => run.serverPerSecond, 'req/s', 1),
          ratio: figureOf(runs, (run) => run.clientPerSecond / run.serverPerSecond, '', 2),
          clientRequestMs: figureOf(runs, (run) => run.clientRequestMs, 'ms'),
          meanInFlight: figureOf(runs, (run) => run.meanInFlight, '', 2),
          serverErrors: runs.reduce((total, run) => total + run.serverErrors, 0),
          storedExactlyOnce: runs.every((run) => run.storedOnce),
          vehicleOrderKept: runs.every((run) => run.orderKept),
        };
      }),
    );

    await step('history', async () => {
      const rounds = await interleaved((portal, runsOf) =>
        measureHistory(browser, portal.url, {
          synced: PLAN.historySynced,
          queued: PLAN.historyQueued,
          runs: runsOf(PLAN.historyRuns),
        }),
      );
      const figures = (batches: HistoryRun[][]) => {
        const runs = batches.flat();
        return {
          showMs: figureOf(runs, (run) => run.showMs, 'ms'),
          showMoreMs: figureOf(runs, (run) => run.showMoreMs, 'ms'),
          heapBeforeMb: figureOf(runs, (run) => run.heapBeforeBytes / 1024 ** 2, 'MB', 1),
          heapWithHistoryMb: figureOf(runs, (run) => run.heapWithHistoryBytes / 1024 ** 2, 'MB', 1),
        };
      };
      const last = rounds.current.at(-1)!.at(-1)!;
      report.history = {
        runs: rounds.current.flat().length,
        synced: PLAN.historySynced,
        queued: PLAN.historyQueued,
        cpuSlowdown: TABLET_CPU_SLOWDOWN,
        ...figures(rounds.current),
        rowsInDom: last.rowsInDom,
        rowsAfterShowMore: last.rowsAfterShowMore,
        previous: rounds.previous ? { commit: rounds.previous.commit, ...figures(rounds.previous.runs) } : undefined,
      };
    });

    await step('api-load', async () => {
      const apiOptions = { connections: PLAN.apiConnections, durationS: PLAN.apiDurationS, runs: PLAN.apiRuns };
      const byDatabase: NonNullable<Report['apiLoad']>['results'] = {};
      for (const database of ['pglite', 'postgres'] as const) {
        const runs = await measureApiLoad(database, apiOptions, log);
        const summary: Record<string, { requestsPerSecond: Figure; p50Ms: Figure; p99Ms: Figure; errors: number }> = {};
        for (const endpoint of ENDPOINTS) {
          const list = runs[endpoint];
          summary[endpoint] = {
            requestsPerSecond: figureOf(list, (run) => run.requestsPerSecond, 'req/s'),
            p50Ms: figureOf(list, (run) => run.latencyP50Ms, 'ms', 1),
            p99Ms: figureOf(list, (run) => run.latencyP99Ms, 'ms', 1),
            errors: list.reduce((total, run) => total + run.errors, 0),
          };
        }
        byDatabase[database] = summary;
      }
      report.apiLoad = { ...apiOptions, results: byDatabase };
    });

    await step('precache', () =>
      withPortal(async (portal) => {
        const run = await measurePrecache(browser, portal.url);
        log(`  kept ${run.appKb} KB: ${run.caches.map((cache) => `${cache.name} ${cache.kb} KB`).join(', ')}`);
        report.precache = { ...run, goalKb: PRECACHE_GOAL_KB };
      }),
    );

    await step('update-download', async () => {
      const run = await measureUpdateDownload(log);
      log(
        `  ${run.kb} KB in ${run.files} files (${run.changedChunks.join(', ')} changed): ${run.largest.map((file) => `${file.file} ${file.kb} KB`).join(', ')}`,
      );
      report.updateDownload = { ...run, goalKb: UPDATE_DOWNLOAD_GOAL_KB };
    });

    await step('photo-load', async () => {
      const options = {
        readers: PHOTO_FLOOD.readers,
        uploaders: PHOTO_FLOOD.uploaders,
        durationS: PLAN.photoLoadDurationS,
      };
      const results = [];
      for (const database of ['pglite', 'postgres'] as const)
        results.push(await measurePhotoLoad(database, options, log));
      report.photoLoad = { ...options, goals: PHOTO_LOAD_GOALS, results };
    });

    await step('lighthouse', async () => {
      const rounds = await interleaved((portal, runsOf) => measureLighthouse(portal.url, runsOf(PLAN.lighthouseRuns)));
      const merged = (runs: LighthousePages[]): LighthousePages => ({
        login: runs.flatMap((run) => run.login),
        dashboard: runs.flatMap((run) => run.dashboard),
      });
      const pages = merged(rounds.current);
      report.lighthouse = {
        runs: pages.login.length,
        version: pages.login[0]?.lighthouseVersion ?? 'unknown',
        settings: 'Lighthouse defaults: mobile emulation, simulated throttling (slow 4G, 4x CPU)',
        goals: LIGHTHOUSE_GOALS,
        pages: lighthouseSummary(pages),
        previous: rounds.previous
          ? { commit: rounds.previous.commit, pages: lighthouseSummary(merged(rounds.previous.runs)) }
          : undefined,
      };
    });
  } finally {
    await browser.close();
  }

  report.machine.loadAverageAtEnd = loadAverage();
  report.durationS = round((Date.now() - started) / 1000);
  const outDir = options.outDir ? path.resolve(options.outDir) : path.join(PROJECT_ROOT, 'bench', 'results');
  await fs.mkdir(outDir, { recursive: true });
  const base = quick ? 'quick' : 'latest';
  await fs.writeFile(path.join(outDir, `${base}.json`), `${JSON.stringify(report, null, 2)}\n`);
  await fs.writeFile(path.join(outDir, `${base}.md`), renderMarkdown(report));
  log(`\n${renderMarkdown(report)}`);
  log(`written ${path.relative(PROJECT_ROOT, path.join(outDir, base))}.{json,md} in ${report.durationS} s`);
  // A full run of every benchmark into bench/results also refreshes the README's summary table.
  if (!quick && !options.outDir && options.only.size === BENCHMARKS.length && Object.keys(report.errors).length === 0) {
    await updateReadme(renderSummary(report));
    log('README.md: Performance table updated');
  }
  if (Object.keys(report.errors).length > 0) process.exitCode = 1;
}

await main();
