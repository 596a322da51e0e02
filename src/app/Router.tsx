import { Box } from '@chakra-ui/react';
import { useEffect, type ComponentType, type ReactNode } from 'react';
import { parse as parseRoutePattern } from 'regexparam';
import { matchRoute, Redirect, Route, Switch } from 'wouter';
import { ChunkErrorBoundary, ChunkFailureNotice } from '../components/ui/chunk-error-boundary';
import { retryableLazy, type RetryableLazy } from '../components/ui/retryable-lazy';
import { PublicLayout } from './layouts/PublicLayout';
import { paths } from '../config/paths';
import { SessionGate, type RouteArea } from './SessionGate';
import { LoadingSpinner } from '../components/ui/loading-spinner';
import { screenShown } from '../lib/start-up';

type ScreenPath = (typeof paths)[keyof typeof paths];

/**
 * Where each screen's code and the signed-in frame's come from: src/app/screens.ts, the one module that
 * names their chunks. It is handed in rather than imported, so that this module, and every shared
 * module with it, never names a screen's chunk: their chunks keep their names when a screen changes
 * (docs/decisions/0033-an-update-downloads-what-changed.md).
 */
export interface ScreenCode {
  /**
   * Keyed by the screen's path, which may name a parameter (`/c/:id`, read with wouter's useParams).
   * `wide`: the screen asks the public frame for a wider column than a form's.
   */
  screens: Record<ScreenPath, { area: RouteArea; wide?: boolean; load: () => Promise<{ default: ComponentType }> }>;
  /**
   * The signed-in frame (header, connectivity, alerts), loaded with the first authenticated screen: it
   * brings the outbox and IndexedDB's code, which the public pages never need.
   */
  authenticatedLayout: () => Promise<{ default: ComponentType<{ children: ReactNode }> }>;
}

interface Screen {
  area: RouteArea;
  wide: boolean;
  Page: RetryableLazy<object>;
}

type LayoutProps = { children: ReactNode; wide?: boolean };

export interface AppRouter {
  Router: ComponentType;
  /**
   * The screen opened starts loading at boot, alongside the session check and the first render,
   * instead of once the router reaches it: one round trip less before the mechanic sees it (start-up
   * and Lighthouse figures: see `npm run bench`).
   */
  preloadLandingPage: (pathname: string) => void;
}

/**
 * Whether an address is a screen's path (`/c/:id` standing for any one id): by wouter's own matcher with
 * its default parser, the one the routes below are matched by, so a screen preloaded is the one shown.
 */
function pathMatches(pattern: string, pathname: string): boolean {
  return matchRoute(parseRoutePattern, pattern, pathname)[0];
}

/** Tells the start-up that a screen is on show: a page, or the notice that its code could not be fetched. */
function ScreenShown() {
  useEffect(screenShown, []);
  return null;
}

const failedScreen = (retry: () => void) => (
  <Box maxWidth="2xl" mx="auto" py={{ base: '2', md: '6' }}>
    <ChunkFailureNotice onRetry={retry} />
    <ScreenShown />
  </Box>
);

/** The router of the portal's screens, each its own chunk: the first load carries only the shell and the screen opened. */
export function createRouter(code: ScreenCode): AppRouter {
  const screens = Object.fromEntries(
    Object.entries(code.screens).map(([path, { area, wide = false, load }]) => [
      path,
      { area, wide, Page: retryableLazy(load) },
    ]),
  ) as Record<ScreenPath, Screen>;
  const AuthenticatedLayout = retryableLazy(code.authenticatedLayout);

  function gatedPage({ area, wide, Page }: Screen) {
    // The signed-in frame has one width and ignores `wide`.
    const Layout: ComponentType<LayoutProps> = area === 'authenticated' ? AuthenticatedLayout : PublicLayout;
    return function GatedPage() {
      return (
        <SessionGate area={area}>
          <ChunkErrorBoundary reset={AuthenticatedLayout.reset} loading={<LoadingSpinner />} fallback={failedScreen}>
            <Layout wide={wide}>
              {/* A screen whose code cannot be fetched leaves the header (menus, language) in place. */}
              <ChunkErrorBoundary reset={Page.reset} loading={<LoadingSpinner />} fallback={failedScreen}>
                <Page />
                <ScreenShown />
              </ChunkErrorBoundary>
            </Layout>
          </ChunkErrorBoundary>
        </SessionGate>
      );
    };
  }

  const routes = Object.entries(screens).map(([path, entry]) => ({ path, component: gatedPage(entry) }));

  function Router() {
    return (
      <Switch>
        {routes.map(({ path, component }) => (
          <Route key={path} path={path} component={component} />
        ))}
        <Route>
          <Redirect to={paths.dashboard} replace />
        </Route>
      </Switch>
    );
  }

  return {
    Router,
    preloadLandingPage(pathname) {
      const screen = Object.entries(screens).find(([path]) => pathMatches(path, pathname))?.[1];
      if (!screen) return;
      const { area, Page } = screen;
      Page.preload();
      if (area === 'authenticated') AuthenticatedLayout.preload();
    },
  };
}
