/**
 * axe-core in the page. The portal's CSP allows no inline script, so the library is evaluated
 * through the DevTools protocol (page.evaluate) rather than added as a <script> tag, which the page
 * would refuse (and log as a CSP violation).
 */
import fs from 'node:fs';
import { createRequire } from 'node:module';
import type { Page } from 'playwright-core';

const require = createRequire(import.meta.url);
const AXE_SOURCE = fs.readFileSync(require.resolve('axe-core/axe.min.js'), 'utf8');

export type Impact = 'minor' | 'moderate' | 'serious' | 'critical';

export interface AxeNode {
  target: string[];
  html: string;
  failureSummary?: string;
}

export interface AxeViolation {
  id: string;
  impact: Impact | null;
  help: string;
  helpUrl: string;
  nodes: AxeNode[];
}

/** Runs every rule axe enables by default (WCAG 2.x A/AA and best practices) on the whole page. */
export async function runAxe(page: Page): Promise<AxeViolation[]> {
  const loaded = await page.evaluate(() => 'axe' in window);
  if (!loaded) await page.evaluate(AXE_SOURCE);
  return page.evaluate(async () => {
    const axe = (window as unknown as { axe: { run: (context: unknown, options: unknown) => Promise<unknown> } }).axe;
    const results = (await axe.run(document, { resultTypes: ['violations'] })) as { violations: AxeViolation[] };
    return results.violations.map((violation) => ({
      id: violation.id,
      impact: violation.impact,
      help: violation.help,
      helpUrl: violation.helpUrl,
      nodes: violation.nodes.map((node) => ({
        target: node.target.map(String),
        html: node.html.slice(0, 200),
        failureSummary: node.failureSummary,
      })),
    }));
  });
}

export function isSeriousOrWorse(violation: AxeViolation): boolean {
  return violation.impact === 'serious' || violation.impact === 'critical';
}

/** One paragraph per violation: id, impact, help, and each failing node's target and reason. */
export function describeViolations(violations: readonly AxeViolation[]): string {
  return violations
    .map((violation) => {
      const nodes = violation.nodes
        .map(
          (node) => `    - ${node.target.join(' ')}\n      ${(node.failureSummary ?? '').replace(/\n/g, '\n      ')}`,
        )
        .join('\n');
      return `  ${violation.id} [${violation.impact ?? 'n/a'}]: ${violation.help} (${violation.helpUrl})\n${nodes}`;
    })
    .join('\n');
}
