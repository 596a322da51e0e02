/**
 * Header menus load on first use: Zag's menu machine and its floating-ui positioning are about 20 KB
 * of gzip JavaScript that neither sign-in nor the dashboard needs to show. Until then the trigger is
 * the same button, marked as opening a menu; hovering or focusing it starts the download, pressing it
 * mounts the real menu and presses its trigger, so it opens exactly as from its own trigger (focus
 * moves into the menu, and back to the trigger when it closes). If the menu's code cannot be loaded,
 * a toast says so and the button stays: its next press (or the toast's Retry) tries again.
 */
import { cloneElement, useEffect, useRef, useState, type ReactElement, type RefObject } from 'react';
import { ChunkErrorBoundary, notifyChunkFailure } from './chunk-error-boundary';
import type { RetryableLazy } from './retryable-lazy';

export interface LazyMenuBaseProps {
  /** The trigger button, for the menu's Menu.Trigger asChild. */
  trigger: ReactElement;
  /** Open as soon as mounted: the placeholder trigger was pressed. */
  openOnMount: boolean;
}

/** For the lazy menu's Menu.Trigger: presses it once mounted when openOnMount is set. */
export function useOpenOnMount(openOnMount: boolean): RefObject<HTMLButtonElement | null> {
  const triggerRef = useRef<HTMLButtonElement>(null);
  useEffect(() => {
    if (openOnMount) triggerRef.current?.click();
  }, [openOnMount]);
  return triggerRef;
}

/**
 * The header's menus are placed against the window, not the page: the header stays at the top while
 * the page scrolls, and a menu placed in the page would scroll away from its button until its place
 * is worked out again, a frame or more later (on a busy tablet, long enough for a tap to land on the
 * header instead of the item).
 */
export const HEADER_MENU_POSITIONING = { strategy: 'fixed' } as const;

type TriggerElement = ReactElement<Record<string, unknown>>;

/** The trigger while the menu is not there: it starts the download, and pressing it asks for the menu. */
function placeholderTrigger(trigger: TriggerElement, preload: () => void, onPress: () => void) {
  return cloneElement(trigger, {
    'aria-haspopup': 'menu',
    'aria-expanded': false,
    onPointerEnter: preload,
    onFocus: preload,
    onClick: onPress,
  });
}

/** In place of a menu that failed to load: the same trigger, whose press retries, and a toast saying why. */
function FailedMenu({ trigger, retry }: { trigger: TriggerElement; retry: () => void }) {
  useEffect(() => {
    // The toaster renders its toasts synchronously (flushSync), which React refuses during a commit.
    let dismiss: (() => void) | null = null;
    queueMicrotask(() => (dismiss = notifyChunkFailure(retry)));
    return () => queueMicrotask(() => dismiss?.());
  }, [retry]);
  return placeholderTrigger(trigger, () => undefined, retry);
}

export function LazyMenu<P extends object>({
  trigger,
  menu: Menu,
  preloadAlso,
  menuProps,
}: {
  trigger: TriggerElement;
  /** The menu (retryableLazy), rendering Menu.Root with the trigger. */
  menu: RetryableLazy<P & LazyMenuBaseProps>;
  /** Other code the menu's choices are likely to need, loaded with it (on hover and focus). */
  preloadAlso?: () => void;
  menuProps: P;
}) {
  const [used, setUsed] = useState(false);
  const preload = () => {
    Menu.preload();
    preloadAlso?.();
  };
  const placeholder = placeholderTrigger(trigger, preload, () => {
    preload();
    setUsed(true);
  });
  if (!used) return placeholder;
  return (
    <ChunkErrorBoundary
      reset={Menu.reset}
      loading={placeholder}
      fallback={(retry) => <FailedMenu trigger={trigger} retry={retry} />}
    >
      <Menu {...menuProps} trigger={trigger} openOnMount />
    </ChunkErrorBoundary>
  );
}
