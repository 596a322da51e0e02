import type { ComponentType } from 'react';
import { Router as LocationRouter } from 'wouter';
import { AppProviders } from './providers';

/**
 * The whole portal. `ssrPath` is the page the build prerenders (src/prerender.tsx); in the browser it
 * is left out and the address bar decides. The location router is there either way, so the tree the
 * browser hydrates is the tree the build rendered. `Router` is the screens' router (createRouter in
 * src/app/Router.tsx).
 */
export function App({ ssrPath, Router }: { ssrPath?: string; Router: ComponentType }) {
  return (
    <LocationRouter ssrPath={ssrPath}>
      <AppProviders>
        <Router />
      </AppProviders>
    </LocationRouter>
  );
}
