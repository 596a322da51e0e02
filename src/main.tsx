import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { App } from './app/App';
import { preloadLandingPage } from './app/Router';
import { initColorMode } from './lib/color-mode';
import { initI18n } from './lib/i18n';
import { startSync } from './lib/sync';
import { registerServiceWorker } from './lib/pwa';
import { ensureSession } from './lib/session';

initColorMode();
// The session check and the landing page's code start now, alongside the catalog and the first render.
void ensureSession();
preloadLandingPage(window.location.pathname);
await initI18n();
startSync();

createRoot(document.getElementById('root')!).render(
  <StrictMode>
    <App />
  </StrictMode>,
);

void registerServiceWorker();
