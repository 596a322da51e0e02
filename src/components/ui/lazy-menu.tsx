/**
 * Header menus load on first use: Zag's menu machine and its floating-ui positioning are about 20 KB
 * of gzip JavaScript that neither sign-in nor the dashboard needs to show. Until then the trigger is
 * the same button, marked as opening a menu; hovering or focusing it starts the download, pressing it
 * mounts the real menu and presses its trigger, so it opens exactly as from its own trigger (focus
 * moves into the menu, and back to the trigger when it closes).
 */
import {
  cloneElement,
  Suspense,
  useEffect,
  useRef,
  useState,
  type ComponentType,
  type ReactElement,
  type RefObject,
} from 'react';

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

export function LazyMenu<P extends object>({
  trigger,
  menu: Menu,
  preload,
  menuProps,
}: {
  trigger: ReactElement<Record<string, unknown>>;
  /** A React.lazy component rendering Menu.Root with the trigger. */
  menu: ComponentType<P & LazyMenuBaseProps>;
  /** Starts loading the menu's module (called on hover and focus, so a tap rarely waits). */
  preload: () => void;
  menuProps: P;
}) {
  const [used, setUsed] = useState(false);
  const placeholder = cloneElement(trigger, {
    'aria-haspopup': 'menu',
    'aria-expanded': false,
    onPointerEnter: preload,
    onFocus: preload,
    onClick: () => {
      preload();
      setUsed(true);
    },
  });
  if (!used) return placeholder;
  return (
    <Suspense fallback={placeholder}>
      <Menu {...menuProps} trigger={trigger} openOnMount />
    </Suspense>
  );
}
