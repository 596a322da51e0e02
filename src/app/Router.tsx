import { Box } from '@chakra-ui/react';
import { useEffect, type ComponentType, type ReactNode } from 'react';
import { Redirect, Route, Switch } from 'wouter';
import { ChunkErrorBoundary, ChunkFailureNotice } from '../components/ui/chunk-error-boundary';
import { retryableLazy, type RetryableLazy } from '../components/ui/retryable-lazy';
import { PublicLayout } from './layouts/PublicLayout';
import { paths } from '../config/paths';
import { SessionGate, type RouteArea } from './SessionGate';
import { LoadingSpinner } from '../components/ui/loading-spinner';
import { screenShown } from '../lib/start-up';

type ScreenPath = (typeof paths)[keyof typeof paths];

interface Screen {
  area: RouteArea;
  Page: RetryableLazy<object>;
}

function screen(area: RouteArea, load: () => Promise<{ default: ComponentType }>): Screen {
  return { area, Page: retryableLazy(load) };
}

// Each screen is its own chunk: the first load carries only the shell and the screen opened.
const screens: Record<ScreenPath, Screen> = {
  [paths.dashboard]: screen('authenticated', () => import('../features/dashboard/pages/DashboardPage')),
  [paths.profile]: screen('authenticated', () => import('../features/profile/pages/ProfilePage')),
  [paths.login]: screen('public', () => import('../features/auth/pages/LoginPage')),
  [paths.register]: screen('public', () => import('../features/auth/pages/RegisterPage')),
  [paths.forgotPassword]: screen('public', () => import('../features/auth/pages/ForgotPasswordPage')),
  [paths.resetPassword]: screen('public', () => import('../features/auth/pages/ResetPasswordPage')),
  [paths.privacyConditions]: screen('open', () => import('../features/legal/pages/PrivacyConditionsPage')),
};

/**
 * The signed-in frame (header, connectivity, alerts) loads with the first authenticated screen: it
 * brings the outbox and IndexedDB's code, which the public pages never need.
 */
const AuthenticatedLayout = retryableLazy<{ children: ReactNode }>(async () => ({
  default: (await import('./layouts/AuthenticatedLayout')).AuthenticatedLayout,
}));

function isScreenPath(pathname: string): pathname is ScreenPath {
  return Object.hasOwn(screens, pathname);
}

/**
 * The screen opened starts loading at boot, alongside the session check and the first render,
 * instead of once the router reaches it: one round trip less before the mechanic sees it (start-up
 * and Lighthouse figures: see `npm run bench`).
 */
export function preloadLandingPage(pathname: string): void {
  if (!isScreenPath(pathname)) return;
  const { area, Page } = screens[pathname];
  Page.preload();
  if (area === 'authenticated') AuthenticatedLayout.preload();
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

function gatedPage({ area, Page }: Screen) {
  const Layout = area === 'authenticated' ? AuthenticatedLayout : PublicLayout;
  return function GatedPage() {
    return (
      <SessionGate area={area}>
        <ChunkErrorBoundary reset={AuthenticatedLayout.reset} loading={<LoadingSpinner />} fallback={failedScreen}>
          <Layout>
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

export function Router() {
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
