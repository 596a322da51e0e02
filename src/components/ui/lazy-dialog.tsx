/**
 * Dialogs load on demand: Chakra's dialog (focus trap, scroll lock, presence) is about 10 KB of gzip
 * JavaScript that no screen needs before a dialog first opens. A dialog made with lazyDialog renders
 * nothing until it is first open, then loads its module and stays mounted, so closing animates.
 */
import { lazy, Suspense, useState, type ComponentType } from 'react';

export type LazyDialogComponent<P> = ComponentType<P> & {
  /** Starts loading the dialog's module ahead of its first opening (when it is likely to open soon). */
  preload(): void;
};

export function lazyDialog<P extends object>(
  load: () => Promise<ComponentType<P>>,
  isOpen: (props: P) => boolean,
): LazyDialogComponent<P> {
  let loading: Promise<ComponentType<P>> | null = null;
  const preload = () => (loading ??= load());
  const Dialog = lazy(async () => ({ default: await preload() }));
  function LazyDialog(props: P) {
    const [opened, setOpened] = useState(false);
    // Derived state (React's "storing information from previous renders"): once open, it stays mounted.
    if (!opened && isOpen(props)) setOpened(true);
    if (!opened && !isOpen(props)) return null;
    return (
      <Suspense fallback={null}>
        <Dialog {...props} />
      </Suspense>
    );
  }
  return Object.assign(LazyDialog, { preload: () => void preload() });
}
