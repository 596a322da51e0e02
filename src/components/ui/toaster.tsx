/**
 * Toasts, as the app asks for them (toaster-view.tsx holds the store and draws them). Their code, with
 * Zag's toast machine, loads with the first toast: most starts show none, so no first screen waits
 * for it (docs/ARCHITECTURE.md#start-up). A toast asked for meanwhile is shown once it has loaded.
 */
import { useEffect, useState, type ComponentType } from 'react';
import { drawn, type LiveWords } from './live-text';

/** A toast's words, worded when drawn when given as a function (live-text.tsx). */
export type ToastText = LiveWords;

export interface ToastOptions {
  type: 'success' | 'error' | 'info' | 'warning';
  title: ToastText;
  description?: ToastText | undefined;
  action?: { label: ToastText; onClick: () => void };
}

type ToasterView = typeof import('./toaster-view');

let view: Promise<ToasterView> | null = null;
/** Views on the page listening to the store, and the toasts waiting for one. */
let mountedViews = 0;
const waitingForView: (() => void)[] = [];
const hosts = new Set<(Toaster: ToasterView['Toaster']) => void>();

function loadView(): Promise<ToasterView> {
  view ??= import('./toaster-view').catch((error: unknown) => {
    view = null; // The next toast tries again (the chunk could not be fetched this time).
    throw error;
  });
  return view;
}

/** Called by the view when it mounts; returns what it calls when it unmounts. */
function viewMounted(): () => void {
  mountedViews += 1;
  waitingForView.splice(0).forEach((resume) => resume());
  return () => {
    mountedViews -= 1;
  };
}

/** The view's store, once the view is loaded and mounted by the host, so no toast is missed. */
async function shownStore(): Promise<ToasterView['toaster']> {
  const loaded = await loadView();
  hosts.forEach((host) => host(loaded.Toaster));
  if (mountedViews === 0) await new Promise<void>((resume) => waitingForView.push(resume));
  return loaded.toaster;
}

/** The options as the toasts' store takes them; an action's label travels in `meta`, drawn by the view. */
function drawnOptions({ type, title, description, action }: ToastOptions) {
  return {
    type,
    title: drawn(title),
    description: description === undefined ? undefined : drawn(description),
    ...(action && {
      action: { label: typeof action.label === 'string' ? action.label : action.label(), onClick: action.onClick },
      meta: { actionLabel: action.label },
    }),
  };
}

/** Shows a toast; returns a function that takes it away. */
export function showToast(options: ToastOptions): () => void {
  let dismissed = false;
  let id: string | undefined;
  const show = () =>
    void shownStore()
      .then((store) => {
        if (!dismissed) id = store.create(drawnOptions(options));
      })
      // Offline before the service worker had the toasts' code (the first seconds of a first visit):
      // shown once the network is back rather than never.
      .catch(() => window.addEventListener('online', show, { once: true }));
  show();
  return () => {
    dismissed = true;
    if (id !== undefined) void shownStore().then((store) => store.dismiss(id));
  };
}

/** Shorthands used across features. */
export const notify = {
  success: (title: ToastText, description?: ToastText) => showToast({ type: 'success', title, description }),
  error: (title: ToastText, description?: ToastText) => showToast({ type: 'error', title, description }),
  info: (title: ToastText, description?: ToastText) => showToast({ type: 'info', title, description }),
  warning: (title: ToastText, description?: ToastText) => showToast({ type: 'warning', title, description }),
};

/** Where the toasts appear: renders the view once the first toast has loaded it. */
export function ToastHost() {
  const [Toaster, setToaster] = useState<ComponentType<{ onMount?: () => () => void }> | null>(null);
  useEffect(() => {
    const host = (loaded: ToasterView['Toaster']) => setToaster(() => loaded);
    hosts.add(host);
    return () => {
      hosts.delete(host);
    };
  }, []);
  return Toaster ? <Toaster onMount={viewMounted} /> : null;
}
