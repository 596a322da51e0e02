/** The bench report: its JSON shape and the Markdown written next to it (bench/results/latest.md). */
import { WARM_UP_CALLS, type PHOTO_LOAD_GOALS, type PhotoLoadRun } from './photo-load';
import type { LazyKind } from './first-load';
import type { UpdateDownload } from './update-download';
import type { MachineInfo } from './lib/machine';
import type { Figure } from './lib/stats';

interface LoadSummary {
  jsGzipKb: Figure;
  cssGzipKb: Figure;
  jsKb: number;
  /** JavaScript and CSS as they crossed the wire (Brotli from the portal), last run. */
  wireKb: number;
  chunks: { file: string; type: 'js' | 'css'; gzipKb: number; lazy: LazyKind | null }[];
}

interface StartupFigures {
  coldMs: Figure;
  /** First contentful paint of the cold runs: the prerendered form on show, before it is live. */
  coldPaintMs: Figure;
  warmOfflineMs: Figure;
  warmOfflinePaintMs: Figure;
  typingInpMs: Figure;
  /** Typing from the first paint of a warm offline start: each run's worst keystroke (bench/startup.ts). */
  firstPaintTypingMs?: Figure;
  /** Characters typed from the first paint missing from the fields once the app was live, all runs. */
  firstPaintTypingLost?: number;
}

/** The start-up figures with a goal. A first paint has none: it says how much of the wait is before the form shows. */
type StartupGoalFigure = 'coldMs' | 'warmOfflineMs' | 'typingInpMs';

/** The first paint reported beside each start's time to a typeable form. */
const PAINT_OF_START: Partial<Record<StartupGoalFigure, 'coldPaintMs' | 'warmOfflinePaintMs'>> = {
  coldMs: 'coldPaintMs',
  warmOfflineMs: 'warmOfflinePaintMs',
};

interface HistoryFigures {
  showMs: Figure;
  showMoreMs: Figure;
  heapBeforeMb: Figure;
  heapWithHistoryMb: Figure;
}

type LighthousePages = Partial<Record<string, { scores: Record<string, Figure>; failingAudits: string[] }>>;

export interface Report {
  generatedAt: string;
  quick: boolean;
  commit: string | null;
  machine: MachineInfo;
  plan: Record<string, number>;
  durationS: number;
  /** Benchmarks that failed, with why: their figures are missing. */
  errors: Record<string, string>;
  /** The commit whose start-up, History and Lighthouse figures were measured beside these, in the same run. */
  baselineCommit?: string;
  /** Why no commit could be measured beside these. */
  baselineProblem?: string;
  firstLoad?: {
    runs: number;
    login: LoadSummary;
    dashboard: LoadSummary;
    signInJourney: LoadSummary;
    /** Of the dashboard's first load, what was asked for before its form could be typed in (IndexedDB's library never is). */
    dashboardFirstScreen?: LoadSummary;
    firstScreenBudgetJsGzipKb: number;
    loginBudgetJsGzipKb: number;
    dashboardCeilingJsGzipKb: number;
    journeyCeilingJsGzipKb: number;
    violations: string[];
  };
  startup?: StartupFigures & {
    runs: number;
    cpuSlowdown: number;
    goals: Record<StartupGoalFigure, number> & { firstPaintTypingMs?: number };
    /** The same figures for the previous commit, measured in the same run. */
    previous?: StartupFigures & { commit: string };
  };
  /** Figure 7: a camera-sized picture made small in the worker, and typing meanwhile. */
  photo?: {
    runs: number;
    cpuSlowdown: number;
    encodeMs: Figure;
    typingInpMs: Figure;
    idleTypingInpMs: Figure;
    keptKb: Figure;
    longSidePx: number;
    goals: { typingInpMs: number };
  };
  outboxDrain?: {
    runs: number;
    entries: number;
    concurrency: number;
    drainMs: Figure;
    clientPerSecond: Figure;
    serverPerSecond: Figure;
    ratio: Figure;
    clientRequestMs: Figure;
    meanInFlight: Figure;
    serverErrors: number;
    storedExactlyOnce: boolean;
    vehicleOrderKept: boolean;
  };
  history?: HistoryFigures & {
    runs: number;
    synced: number;
    queued: number;
    cpuSlowdown: number;
    rowsInDom: number;
    rowsAfterShowMore: number;
    /** The same figures for the previous commit, measured in the same run. */
    previous?: HistoryFigures & { commit: string };
  };
  apiLoad?: {
    connections: number;
    durationS: number;
    runs: number;
    results: Partial<
      Record<
        'pglite' | 'postgres',
        Record<string, { requestsPerSecond: Figure; p50Ms: Figure; p99Ms: Figure; errors: number }>
      >
    >;
  };
  /** What a new tablet keeps for offline use (bench/precache.ts). */
  precache?: {
    caches: { name: string; entries: number; kb: number }[];
    appKb: number;
    scannerKb: number;
    goalKb: number;
  };
  /** What a tablet downloads for an update that changes one screen's code (bench/update-download.ts). */
  updateDownload?: UpdateDownload & { goalKb: number };
  photoLoad?: {
    readers: number;
    uploaders: number;
    durationS: number;
    goals: typeof PHOTO_LOAD_GOALS;
    results: PhotoLoadRun[];
  };
  lighthouse?: {
    runs: number;
    version: string;
    settings: string;
    goals: Record<string, number>;
    pages: LighthousePages;
    /** The previous commit's scores, measured in the same run. */
    previous?: { commit: string; pages: LighthousePages };
  };
}

const n = (value: number, digits = 0) =>
  value.toLocaleString('en-US', { minimumFractionDigits: digits, maximumFractionDigits: digits });
const files = (count: number) => `${n(count)} ${count === 1 ? 'file' : 'files'}`;
const yes = (ok: boolean) => (ok ? '✅ holds' : '❌ not met');
const spread = (f: Figure) => (f.runs.length > 1 ? ` (runs: ${f.runs.map((v) => n(v, 0)).join(', ')})` : '');

/** A start-up figure's median, with the first paint beside a start's: "1,189 ms, first paint 752 ms". */
function startupMedian(figures: StartupFigures, figureName: StartupGoalFigure): string {
  const paint = PAINT_OF_START[figureName];
  return `${n(figures[figureName].median)} ms${paint ? `, first paint ${n(figures[paint].median)} ms` : ''}`;
}

/** A start's time to a typeable form and its first paint, each a median with its runs. */
function startWithPaint(live: Figure, paint: Figure): string {
  return `median ${n(live.median)} ms${spread(live)}, first paint median ${n(paint.median)} ms${spread(paint)}`;
}

/** The History tab's time to show and heap with it open: "1,620 ms to show; JS heap 14.4 MB". */
function historyMedian(figures: HistoryFigures): string {
  return `${n(figures.showMs.median)} ms to show; JS heap ${n(figures.heapWithHistoryMb.median, 1)} MB`;
}

const ENDPOINT_NAMES: Record<string, string> = {
  'vehicle-lookup': 'GET /vehicles/{kode_id}',
  'list-repairs': 'GET /repairs',
  'create-repair': 'POST /repairs',
};

function summaryRows(report: Report): string[] {
  const rows: string[] = [];
  const row = (figureName: string, result: string, target: string, verdict: string) =>
    rows.push(`| ${figureName} | ${result} | ${target} | ${verdict} |`);
  const f = report.firstLoad;
  if (f) {
    row(
      'First load `/login`: gzip JS / CSS (on the wire, Brotli)',
      `${n(f.login.jsGzipKb.median, 1)} KB / ${n(f.login.cssGzipKb.median, 1)} KB (${n(f.login.wireKb, 1)} KB)`,
      `JS ≤ ${f.loginBudgetJsGzipKb} KB`,
      yes(f.login.jsGzipKb.median <= f.loginBudgetJsGzipKb),
    );
    if (f.dashboardFirstScreen) {
      row(
        'Dashboard until its form is typeable (signed in, empty cache): gzip JS',
        `${n(f.dashboardFirstScreen.jsGzipKb.median, 1)} KB`,
        `JS ≤ ${f.firstScreenBudgetJsGzipKb} KB`,
        yes(f.dashboardFirstScreen.jsGzipKb.median <= f.firstScreenBudgetJsGzipKb),
      );
    }
    row(
      'First load dashboard, whole (signed in, empty cache): gzip JS / CSS (on the wire, Brotli)',
      `${n(f.dashboard.jsGzipKb.median, 1)} KB / ${n(f.dashboard.cssGzipKb.median, 1)} KB (${n(f.dashboard.wireKb, 1)} KB)`,
      `≤ ${f.dashboardCeilingJsGzipKb} KB (ceiling, not a budget)`,
      yes(f.dashboard.jsGzipKb.median <= f.dashboardCeilingJsGzipKb),
    );
    row(
      'First visit `/login` → sign-in → dashboard: gzip JS (both screens and the toasts)',
      `${n(f.signInJourney.jsGzipKb.median, 1)} KB`,
      `≤ ${f.journeyCeilingJsGzipKb} KB (ceiling, not a budget)`,
      yes(f.signInJourney.jsGzipKb.median <= f.journeyCeilingJsGzipKb),
    );
    const lazy = [f.login, f.dashboard, f.signInJourney].flatMap((set) => set.chunks.filter((chunk) => chunk.lazy));
    row(
      'Map, phone mask, ar/en catalogs in a first load',
      lazy.length === 0 ? 'none' : lazy.map((chunk) => `${chunk.file} (${chunk.lazy})`).join(', '),
      'none',
      yes(lazy.length === 0),
    );
  }
  const s = report.startup;
  if (s) {
    const beside = (figureName: StartupGoalFigure) =>
      s.previous ? ` (previous commit ${s.previous.commit}: ${startupMedian(s.previous, figureName)})` : '';
    const startupRow = (figureName: StartupGoalFigure, label: string) =>
      row(
        label,
        `${startupMedian(s, figureName)}${beside(figureName)}`,
        `≤ ${n(s.goals[figureName])} ms`,
        yes(s[figureName].median <= s.goals[figureName]),
      );
    startupRow('coldMs', `Start-up to typeable dashboard, cold, ${s.cpuSlowdown}x CPU`);
    startupRow('warmOfflineMs', `Start-up to typeable dashboard, warm offline (service worker), ${s.cpuSlowdown}x CPU`);
    startupRow('typingInpMs', `Typing in KODE ID and odometer: Interaction to Next Paint, ${s.cpuSlowdown}x CPU`);
    const early = s.firstPaintTypingMs;
    if (early) {
      // The goal is on the worst keystroke of all runs, and on every character arriving.
      const worst = Math.max(...early.runs);
      row(
        `Typing from the first paint of a warm offline start (before the app is live): worst keystroke of all runs, characters lost, ${s.cpuSlowdown}x CPU`,
        `${n(worst)} ms (median of runs ${n(early.median)} ms), ${n(s.firstPaintTypingLost ?? 0)} lost`,
        `≤ ${n(s.goals.firstPaintTypingMs ?? 100)} ms, none lost`,
        yes(worst <= (s.goals.firstPaintTypingMs ?? 100) && (s.firstPaintTypingLost ?? 0) === 0),
      );
    }
  }
  const kept = report.precache;
  if (kept) {
    row(
      'What a new tablet keeps to start offline (precache and its own prerendered pages; the scanner’s code besides where the browser has no barcode reader)',
      `${n(kept.appKb)} KB (${kept.caches
        .filter((cache) => cache.kb > 0)
        .map((cache) => `${cache.name.replace(/-http.*$/, '')}: ${cache.entries} files, ${n(cache.kb)} KB`)
        .join('; ')}); scanner besides: ${n(kept.scannerKb)} KB`,
      `≤ ${n(kept.goalKb)} KB`,
      yes(kept.appKb <= kept.goalKb),
    );
  }
  const update = report.updateDownload;
  if (update) {
    row(
      'An update that changes one screen’s code: what a tablet downloads (the worker, new precache entries, its changed prerendered pages; Brotli as served)',
      `${n(update.kb, 1)} KB in ${update.files} files (largest: ${update.largest
        .slice(0, 3)
        .map((file) => `${file.file.replace(/^assets\//, '')} ${n(file.kb, 1)} KB`)
        .join(', ')})`,
      `≤ ${n(update.goalKb)} KB`,
      yes(update.kb <= update.goalKb),
    );
  }
  const p = report.photo;
  if (p) {
    row(
      `Odometer photo 4000×3000 made small (worker), ${p.cpuSlowdown}x CPU`,
      `${n(p.encodeMs.median)} ms, ${n(p.keptKb.median, 1)} KB, ${n(p.longSidePx)} px`,
      '≤ 200 KB, ≤ 1,600 px',
      yes(p.keptKb.median <= 200 && p.longSidePx <= 1600),
    );
    row(
      `Typing while the photo is made small: Interaction to Next Paint, ${p.cpuSlowdown}x CPU`,
      `${n(p.typingInpMs.median)} ms (without a photo: ${n(p.idleTypingInpMs.median)} ms)`,
      `≤ ${n(p.goals.typingInpMs)} ms`,
      yes(p.typingInpMs.median <= p.goals.typingInpMs),
    );
  }
  const d = report.outboxDrain;
  if (d) {
    row(
      `Outbox drain, ${n(d.entries)} entries queued offline`,
      `${n(d.drainMs.median / 1000, 1)} s, ${n(d.clientPerSecond.median, 1)} entries/s`,
      'each stored once, vehicle order kept',
      yes(d.storedExactlyOnce && d.vehicleOrderKept),
    );
    row(
      `Server capacity, same POST /repairs (autocannon, ${d.concurrency} connections)`,
      `${n(d.serverPerSecond.median, 1)} req/s; client/server ${n(d.ratio.median, 2)}`,
      'errors 0',
      yes(d.serverErrors === 0),
    );
  }
  const h = report.history;
  if (h) {
    row(
      `History tab, ${n(h.synced)} synced + ${n(h.queued)} queued, ${h.cpuSlowdown}x CPU`,
      `${historyMedian(h)}${h.previous ? ` (previous commit ${h.previous.commit}: ${historyMedian(h.previous)})` : ''}`,
      'paged or virtualised',
      yes(h.rowsInDom <= 100),
    );
  }
  const a = report.apiLoad;
  if (a) {
    for (const database of ['pglite', 'postgres'] as const) {
      const results = a.results[database];
      if (!results) continue;
      for (const [endpoint, result] of Object.entries(results)) {
        row(
          `API ${ENDPOINT_NAMES[endpoint] ?? endpoint}, ${database === 'pglite' ? 'PGlite' : 'PostgreSQL'}`,
          `${n(result.requestsPerSecond.median)} req/s, p50 ${n(result.p50Ms.median, 1)} ms, p99 ${n(result.p99Ms.median, 1)} ms, ${result.errors} errors`,
          'errors 0',
          yes(result.errors === 0),
        );
      }
    }
  }
  const flood = report.photoLoad;
  if (flood) {
    for (const run of flood.results) {
      row(
        `One garage's photo flood (${flood.readers} GETs + ${flood.uploaders} uploads of 2 MB in flight), ${databaseName(run.database)}: health / other garage's lookup p99, memory growth`,
        `${n(run.health.p99Ms, 1)} ms / ${n(run.otherLookup.p99Ms, 1)} ms, +${n(run.peakRssMb - run.idleRssMb)} MB; ${photoAnswers(run)}`,
        `≤ ${flood.goals.healthP99Ms} ms / ≤ ${flood.goals.otherLookupP99Ms} ms, ≤ ${flood.goals.rssGrowthMb} MB; no hang`,
        yes(photoLoadMet(run, flood.goals)),
      );
    }
  }
  const l = report.lighthouse;
  if (l) {
    for (const [pageName, page] of Object.entries(l.pages)) {
      if (!page) continue;
      const categories = ['performance', 'accessibility', 'best-practices'];
      const scores = categories.map((c) => page.scores[c]?.median ?? 0);
      const goals = categories.map((c) => l.goals[c] ?? 100);
      const before = l.previous?.pages[pageName];
      row(
        `Lighthouse ${pageName === 'login' ? '`/login`' : 'dashboard'}: performance / accessibility / best practices`,
        scores.join(' / ') +
          (before && l.previous
            ? ` (previous commit ${l.previous.commit}: ${categories.map((c) => before.scores[c]?.median ?? 0).join(' / ')})`
            : ''),
        goals.join(' / '),
        yes(scores.every((score, i) => score >= goals[i]!)),
      );
    }
  }
  return rows;
}

/** The README's summary: the machine and the table, pointing at the full report. */
export function renderSummary(report: Report): string {
  const m = report.machine;
  return [
    `Measured ${report.generatedAt.slice(0, 10)} on ${m.cpuModel}, ${m.cores} cores, ${m.memoryGb} GB, Node ${m.node}` +
      `${m.chromium ? `, Chromium ${m.chromium}` : ''} (load average ${m.loadAverageAtStart} at the start); medians of` +
      ' repeated runs, details and run counts in [bench/results/latest.md](bench/results/latest.md).',
    '',
    '| Figure | Result (median) | Budget / goal | |',
    '|---|---|---|---|',
    ...summaryRows(report),
  ].join('\n');
}

export function renderMarkdown(report: Report): string {
  const m = report.machine;
  const lines: string[] = [];
  lines.push(`# Benchmarks${report.quick ? ' (quick smoke run: small counts, not figures to publish)' : ''}`, '');
  lines.push(
    `Measured ${report.generatedAt.slice(0, 16).replace('T', ' ')} UTC${report.commit ? ` on commit ${report.commit}` : ''} by \`npm run bench${report.quick ? ' -- --quick' : ''}\` in ${n(report.durationS)} s.`,
    '',
    `Machine: ${m.cpuModel}, ${m.cores} cores, ${m.memoryGb} GB memory, Node ${m.node}, ${m.platform}${m.chromium ? `, Chromium ${m.chromium}` : ''}. ` +
      `Load average (1 min) ${m.loadAverageAtStart} at the start and ${m.loadAverageAtEnd ?? '?'} at the end` +
      (m.loadAverageAtStart >= 1 || (m.loadAverageAtEnd ?? 0) >= 1
        ? ' — the machine was busy with other work: times are pessimistic.'
        : '.'),
    '',
    'Each figure is the median of its runs; run counts are given per section. KB = 1,024 bytes, gzip at level 6.',
    '',
    '| Figure | Result (median) | Budget / goal | |',
    '|---|---|---|---|',
    ...summaryRows(report),
    '',
  );
  const f = report.firstLoad;
  if (f) {
    lines.push(`## 1. First-load weight (${f.runs} run${f.runs > 1 ? 's' : ''}; bytes are deterministic)`, '');
    lines.push(
      'What Chromium fetches on a first visit (empty cache, no service worker yet), each body gzipped here; the service worker script and its background precache are not counted.',
      '',
    );
    for (const [title, set] of [
      ['`/login`', f.login],
      ['Dashboard, opened signed in', f.dashboard],
      ['`/login`, then sign-in, until the dashboard is typeable (both together)', f.signInJourney],
      ...(f.dashboardFirstScreen
        ? [['Dashboard, what was asked for before its form was typeable', f.dashboardFirstScreen] as const]
        : []),
    ] as const) {
      lines.push(
        `**${title}**: ${n(set.jsGzipKb.median, 1)} KB gzip JS (${n(set.jsKb, 1)} KB uncompressed; ${n(set.wireKb, 1)} KB of JS and CSS on the wire, Brotli), ${n(set.cssGzipKb.median, 1)} KB gzip CSS, ${set.chunks.length} files:`,
        '',
        set.chunks.map((chunk) => `\`${chunk.file.replace('/assets/', '')}\` ${n(chunk.gzipKb, 1)}`).join(' · '),
        '',
      );
    }
    if (f.violations.length > 0) lines.push('Budget violations:', '', ...f.violations.map((v) => `- ${v}`), '');
  }
  const s = report.startup;
  if (s) {
    lines.push(
      `## 2. Start-up on a tablet (${s.runs} runs each, CPU slowed ${s.cpuSlowdown}x)`,
      '',
      'Navigation start to the `dashboard-interactive` mark (the kode_id input mounted and enabled), and to the first contentful paint (Paint Timing: the prerendered form on show, not yet live).',
      '',
      `- cold (signed-in tablet with no code cached: service worker and caches cleared, every script over loopback): ${startWithPaint(s.coldMs, s.coldPaintMs)}`,
      `- warm offline (service worker in control, browser offline, reload): ${startWithPaint(s.warmOfflineMs, s.warmOfflinePaintMs)}`,
      `- typing a KODE ID and an odometer reading after each warm start, Interaction to Next Paint (Event Timing; 16 ms is the smallest it reports): median ${n(s.typingInpMs.median)} ms${spread(s.typingInpMs)}`,
      ...(s.previous
        ? [
            `- previous commit ${s.previous.commit}, same run: cold ${startWithPaint(s.previous.coldMs, s.previous.coldPaintMs)}; warm offline ${startWithPaint(s.previous.warmOfflineMs, s.previous.warmOfflinePaintMs)}; typing INP ${n(s.previous.typingInpMs.median)} ms${spread(s.previous.typingInpMs)}`,
          ]
        : []),
      '',
    );
  }
  const p = report.photo;
  if (p) {
    lines.push(
      `## 7. Odometer photo (${p.runs} run${p.runs > 1 ? 's' : ''}, CPU slowed ${p.cpuSlowdown}x)`,
      '',
      "A 4000×3000 JPEG with grain handed to the form's picker on a signed-in dashboard; a KODE ID typed key by key the whole time it is made small.",
      '',
      `- made small (picture handed over → preview on show): median ${n(p.encodeMs.median)} ms${spread(p.encodeMs)}; kept ${n(p.keptKb.median, 1)} KB, long side ${n(p.longSidePx)} px`,
      `- typing meanwhile, Interaction to Next Paint: median ${n(p.typingInpMs.median)} ms${spread(p.typingInpMs)}`,
      `- the same typing with no photo, as long, on the same page: median ${n(p.idleTypingInpMs.median)} ms${spread(p.idleTypingInpMs)}`,
      '',
    );
  }
  const d = report.outboxDrain;
  if (d) {
    lines.push(
      `## 3. Outbox drain (${d.runs} run${d.runs > 1 ? 's' : ''} of ${n(d.entries)} entries)`,
      '',
      `Entries written into the app's IndexedDB outbox while offline, then back online; the app's sync engine sends them (${d.concurrency} vehicles at a time, each vehicle in order).`,
      '',
      `- until the server holds all: median ${n(d.drainMs.median)} ms${spread(d.drainMs)} → ${n(d.clientPerSecond.median, 1)} entries/s`,
      `- server alone, same POST, ${d.concurrency} connections (autocannon, same run): ${n(d.serverPerSecond.median, 1)} req/s; the client reaches ${n(d.ratio.median * 100)} % of it`,
      `- as the page saw its requests: ${n(d.clientRequestMs.median)} ms each, ${n(d.meanInFlight.median, 2)} of ${d.concurrency} in flight on average`,
      `- stored exactly once: ${d.storedExactlyOnce ? 'yes' : 'NO'}; each vehicle's readings in entry order: ${d.vehicleOrderKept ? 'yes' : 'NO'}; autocannon errors: ${d.serverErrors}`,
      '',
    );
  }
  const h = report.history;
  if (h) {
    lines.push(
      `## 4. History at scale (${h.runs} runs, CPU slowed ${h.cpuSlowdown}x, offline)`,
      '',
      `- ${n(h.synced)} synced + ${n(h.queued)} queued entries in IndexedDB: the History tab shows its first ${h.rowsInDom} rows in ${n(h.showMs.median)} ms${spread(h.showMs)}; "show more" to ${h.rowsAfterShowMore} rows in ${n(h.showMoreMs.median)} ms`,
      `- JS heap after GC: ${n(h.heapBeforeMb.median, 1)} MB on the dashboard, ${n(h.heapWithHistoryMb.median, 1)} MB with the history open`,
      `- paged: ${h.rowsInDom} rows in the DOM out of ${n(h.synced + h.queued)}, 50 more per "show more"`,
      ...(h.previous
        ? [
            `- previous commit ${h.previous.commit}, same run: first rows in ${n(h.previous.showMs.median)} ms${spread(h.previous.showMs)}; "show more" in ${n(h.previous.showMoreMs.median)} ms; JS heap ${n(h.previous.heapBeforeMb.median, 1)} MB on the dashboard, ${n(h.previous.heapWithHistoryMb.median, 1)} MB with the history open`,
          ]
        : []),
      '',
    );
  }
  const a = report.apiLoad;
  if (a) {
    lines.push(
      `## 5. API under load (${a.runs} runs of ${a.durationS} s per endpoint, ${a.connections} connections, loopback)`,
      '',
      '| Endpoint | Database | req/s | p50 ms | p99 ms | errors |',
      '|---|---|---|---|---|---|',
    );
    for (const database of ['pglite', 'postgres'] as const) {
      for (const [endpoint, result] of Object.entries(a.results[database] ?? {})) {
        lines.push(
          `| ${ENDPOINT_NAMES[endpoint] ?? endpoint} | ${database === 'pglite' ? 'PGlite' : 'PostgreSQL'} | ${n(result.requestsPerSecond.median)} | ${n(result.p50Ms.median, 1)} | ${n(result.p99Ms.median, 1)} | ${result.errors} |`,
        );
      }
    }
    lines.push('', 'Errors count connection errors, timeouts and every non-2xx answer.', '');
  }
  const update = report.updateDownload;
  if (update) {
    const kinds = {
      precache: 'precache entries',
      shell: 'prerendered pages (fr, light)',
      worker: 'the worker',
    } as const;
    lines.push(
      '## 8. An update’s download (two builds of the working tree, one screen changed between them)',
      '',
      `\`${update.changedFile}\` changed (in the built \`${update.changedChunks.join('`, `')}\`): a tablet holding the first build downloads ${n(update.kb, 1)} KB in ${update.files} files to run the second, ` +
        `each counted as the server sends it (its Brotli copy; files under 1 KB as they are). ` +
        (Object.keys(kinds) as (keyof typeof kinds)[])
          .map((kind) => `${kinds[kind]}: ${files(update.byKind[kind].files)}, ${n(update.byKind[kind].kb, 1)} KB`)
          .join('; ') +
        ` (of ${update.precacheEntries} precache entries). Largest: ${update.largest.map((file) => `\`${file.file}\` ${n(file.kb, 1)} KB`).join(' · ')}.`,
      '',
    );
  }
  const flood = report.photoLoad;
  if (flood) {
    lines.push(
      `## 7. One garage's photo flood (${flood.durationS} s per database, loopback)`,
      '',
      `One partner keeps ${flood.readers} GETs of a 2 MB photo (no If-None-Match) and ${flood.uploaders} uploads of 2 MB in flight, each asking again as soon as it is answered, or after the Retry-After of a 503 as the tablet does; meanwhile a thread of its own asks \`/api/health/live\` and another partner's vehicle lookup, one after the other, and the server's resident memory is sampled every 50 ms.`,
      '',
      '| Database | health p50 / p99 / max ms | other lookup p50 / p99 / max ms | memory started / idle → peak MB | GET answers | upload answers | met |',
      '|---|---|---|---|---|---|---|',
      ...flood.results.map(
        (run) =>
          `| ${databaseName(run.database)} | ${n(run.health.p50Ms, 1)} / ${n(run.health.p99Ms, 1)} / ${n(run.health.maxMs)} | ${n(run.otherLookup.p50Ms, 1)} / ${n(run.otherLookup.p99Ms, 1)} / ${n(run.otherLookup.maxMs)} | ${run.startRssMb} / ${run.idleRssMb} → ${run.peakRssMb} | ${statusList(run.reads)} | ${statusList(run.uploads)} | ${yes(photoLoadMet(run, flood.goals))} |`,
      ),
      '',
      `Memory is the server's resident set (VmRSS): just started, then idle once it has served and taken ${WARM_UP_CALLS} photos one at a time (its code loaded and compiled, its connections open), then the peak during the flood; growth is counted from idle.`,
      '',
      `Goals: health p99 ≤ ${flood.goals.healthP99Ms} ms, the other partner's lookup p99 ≤ ${flood.goals.otherLookupP99Ms} ms, memory at most ${flood.goals.rssGrowthMb} MB over idle, every photo call answered (503 always with Retry-After; "error" counts a call refused, reset or unanswered after 30 s).`,
      '',
    );
  }
  const l = report.lighthouse;
  if (l) {
    lines.push(`## 6. Lighthouse ${l.version} (${l.runs} runs per page)`, '', `${l.settings}.`, '');
    if (l.previous) {
      const previous = l.previous;
      lines.push(
        `Previous commit ${previous.commit}, same run: ${Object.entries(previous.pages)
          .map(
            ([pageName, page]) =>
              `${pageName} ${Object.entries(page?.scores ?? {})
                .map(([category, score]) => `${category} ${score.median}`)
                .join(', ')}`,
          )
          .join('; ')}.`,
        '',
      );
    }
    for (const [pageName, page] of Object.entries(l.pages)) {
      if (!page) continue;
      lines.push(
        `- ${pageName}: ${Object.entries(page.scores)
          .map(([category, score]) => `${category} ${score.median}${spread(score)}`)
          .join(', ')}`,
      );
      // One line per audit (the first run's value; every run's is in the JSON).
      const audits = new Map<string, string>();
      for (const audit of page.failingAudits) {
        const id = audit.split(' (')[0] ?? audit;
        if (!audits.has(id)) audits.set(id, audit);
      }
      if (audits.size > 0) lines.push(`  - audits losing points: ${[...audits.values()].join('; ')}`);
    }
    lines.push('');
  }
  const errors = Object.entries(report.errors);
  if (errors.length > 0) {
    lines.push('## Failed', '', ...errors.map(([name, message]) => `- ${name}: ${message.split('\n')[0]}`), '');
  }
  return `${lines.join('\n')}\n`;
}

function databaseName(database: 'pglite' | 'postgres'): string {
  return database === 'pglite' ? 'PGlite' : 'PostgreSQL';
}

function statusList(statuses: Record<string, number>): string {
  return Object.entries(statuses)
    .sort(([a], [b]) => a.localeCompare(b))
    .map(([status, count]) => `${count} × ${status}`)
    .join(', ');
}

function photoAnswers(run: PhotoLoadRun): string {
  const hung = (run.reads.error ?? 0) + (run.uploads.error ?? 0);
  return `${hung} unanswered, ${run.unavailableWithoutRetryAfter} 503 without Retry-After`;
}

export function photoLoadMet(run: PhotoLoadRun, goals: typeof PHOTO_LOAD_GOALS): boolean {
  return (
    Object.keys(run.health.statuses).join() === '200' &&
    Object.keys(run.otherLookup.statuses).join() === '200' &&
    run.health.p99Ms <= goals.healthP99Ms &&
    run.otherLookup.p99Ms <= goals.otherLookupP99Ms &&
    run.peakRssMb - run.idleRssMb <= goals.rssGrowthMb &&
    (run.reads.error ?? 0) + (run.uploads.error ?? 0) === 0 &&
    run.unavailableWithoutRetryAfter === 0
  );
}
