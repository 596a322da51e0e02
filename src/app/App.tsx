import { AppProviders } from './providers';
import { Router } from './Router';

export function App() {
  return (
    <AppProviders>
      <Router />
    </AppProviders>
  );
}
