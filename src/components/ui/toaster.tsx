/**
 * Toasts for every feature. The toaster (Zag's toast machine and its dismissable layer, about 9 KB
 * of gzip JavaScript) loads with the first toast rather than with the first screen: nothing is
 * shown before a mechanic acts. Toasts asked for while it loads are shown, in order, once it is in.
 */
import { lazy, Suspense, useSyncExternalStore } from 'react';

export { TOAST_DURATION_MS, TOAST_MAX } from './toast-rules';

type ToasterModule = typeof import('./toaster-view');
type ToastType = 'success' | 'error' | 'info' | 'warning';

let loading: Promise<ToasterModule> | null = null;
function loadToaster(): Promise<ToasterModule> {
  loading ??= import('./toaster-view').catch((error: unknown) => {
    loading = null; // let the next toast try again
    throw error;
  });
  return loading;
}

let wanted = false;
const listeners = new Set<() => void>();
function subscribe(listener: () => void) {
  listeners.add(listener);
  return () => listeners.delete(listener);
}

function show(type: ToastType, title: string, description?: string): void {
  if (!wanted) {
    wanted = true;
    for (const listener of listeners) listener();
  }
  loadToaster().then(
    ({ toaster }) => toaster.create({ type, title, description }),
    () => undefined, // the module could not load (offline before the shell was cached): nothing to show it with
  );
}

const ToasterView = lazy(() => loadToaster().then((module) => ({ default: module.ToasterView })));

/** Mounted once by the app's providers; renders nothing until the first toast. */
export function Toaster() {
  const mount = useSyncExternalStore(subscribe, () => wanted);
  if (!mount) return null;
  return (
    <Suspense fallback={null}>
      <ToasterView />
    </Suspense>
  );
}

/** Shorthands used across features. */
export const notify = {
  success: (title: string, description?: string) => show('success', title, description),
  error: (title: string, description?: string) => show('error', title, description),
  info: (title: string, description?: string) => show('info', title, description),
  warning: (title: string, description?: string) => show('warning', title, description),
};
