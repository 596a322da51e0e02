import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { App } from './app/App';
import { initColorMode } from './lib/color-mode';
import { initI18n } from './lib/i18n';
import { startSync } from './lib/sync';
import { registerServiceWorker } from './lib/pwa';

initColorMode();
await initI18n();
startSync();

createRoot(document.getElementById('root')!).render(
  <StrictMode>
    <App />
  </StrictMode>,
);

void registerServiceWorker();
