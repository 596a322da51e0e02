/**
 * A part of a prerendered first screen that the mechanic does not need first: the header's controls,
 * the dashboard's title and statistics, a tab list. React hydrates everything outside such parts
 * first, so the form a mechanic types into is live sooner, and hydrates these parts right after, at
 * a lower priority. A tap on one before then hydrates it at once and is replayed; an update reaching
 * one first (new props, a context that changed) hydrates it before the update is applied
 * (docs/ARCHITECTURE.md#start-up). Outside hydration it is a plain Suspense boundary that shows
 * nothing while something inside it loads.
 */
import { Suspense, type ReactNode } from 'react';

interface HydrateLaterProps {
  children: ReactNode;
  /**
   * For a part of the layout around a screen: the screen itself sits in a Suspense boundary (its
   * code loads on demand, see the Router), and React hydrates one level of boundaries per pass, so
   * the layout's part waits one level more to come after the screen's form.
   */
  afterTheScreen?: boolean;
}

export function HydrateLater({ children, afterTheScreen = false }: HydrateLaterProps) {
  const later = <Suspense fallback={null}>{children}</Suspense>;
  return afterTheScreen ? <Suspense fallback={null}>{later}</Suspense> : later;
}
