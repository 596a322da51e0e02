/**
 * Dialogs load on demand: Chakra's dialog (focus trap, scroll lock, presence) is about 10 KB of gzip
 * JavaScript that no screen needs before a dialog first opens. A dialog made with lazyDialog renders
 * nothing until it is first open, then loads its module and stays mounted, so closing animates. If
 * its module cannot be loaded, a message with Retry and Cancel stands where it would have opened.
 */
import { useState, type ComponentType } from 'react';
import { ChunkErrorBoundary, ChunkFailureNotice } from './chunk-error-boundary';
import { retryableLazy } from './retryable-lazy';

export type LazyDialogComponent<P> = ComponentType<P> & {
  /** Starts loading the dialog's module ahead of its first opening (when it is likely to open soon). */
  preload(): void;
};

export interface LazyDialogState<P> {
  isOpen(props: P): boolean;
  /** What the dialog's own Cancel or close does (the mechanic gives the dialog up). */
  close(props: P): void;
}

export function lazyDialog<P extends object>(
  load: () => Promise<ComponentType<P>>,
  { isOpen, close }: LazyDialogState<P>,
): LazyDialogComponent<P> {
  const Dialog = retryableLazy(async () => ({ default: await load() }));
  function LazyDialog(props: P) {
    const [opened, setOpened] = useState(false);
    const open = isOpen(props);
    // Derived state (React's "storing information from previous renders"): once open, it stays mounted.
    if (!opened && open) setOpened(true);
    if (!opened && !open) return null;
    return (
      <ChunkErrorBoundary
        reset={Dialog.reset}
        // Opened again after a failure: a new attempt.
        resetKey={open}
        fallback={(retry) => open && <ChunkFailureNotice floating onRetry={retry} onCancel={() => close(props)} />}
      >
        <Dialog {...props} />
      </ChunkErrorBoundary>
    );
  }
  return Object.assign(LazyDialog, { preload: Dialog.preload });
}
