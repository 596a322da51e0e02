import { Router as LocationRouter } from 'wouter';
import { AppProviders } from './providers';
import { Router } from './Router';

/**
 * The whole portal. `ssrPath` is the page the build prerenders (src/prerender.tsx); in the browser it
 * is left out and the address bar decides. The location router is there either way, so the tree the
 * browser hydrates is the tree the build rendered.
 */
export function App({ ssrPath }: { ssrPath?: string }) {
  return (
    <LocationRouter ssrPath={ssrPath}>
      <AppProviders>
        <Router />
      </AppProviders>
    </LocationRouter>
  );
}
