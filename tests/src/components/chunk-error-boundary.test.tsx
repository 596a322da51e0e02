/**
 * A part of the app whose code cannot be loaded (retryableLazy inside ChunkErrorBoundary, as the
 * screens, dialogs, menus and the map use them): its message and Retry in the user's language, a
 * new import on each Retry, nothing lost around it, and nothing logged.
 */
import { screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { Suspense, useState, type ComponentType } from 'react';
import { afterEach, beforeEach, describe, expect, it, vi, type Mock } from 'vitest';
import { ChunkErrorBoundary, reportCaughtError } from '../../../src/components/ui/chunk-error-boundary';
import { lazyDialog } from '../../../src/components/ui/lazy-dialog';
import { LazyMenu, type LazyMenuBaseProps } from '../../../src/components/ui/lazy-menu';
import { ChunkLoadError, retryableLazy } from '../../../src/components/ui/retryable-lazy';
import type { Locale } from '../../../src/lib/i18n';
import { renderWithApp } from '../render';
import { expectVisible } from '../support/dom';

const MESSAGES: Record<Locale, { failed: string; retry: string }> = {
  fr: { failed: "Cette partie du portail n'a pas pu être chargée.", retry: 'Réessayer' },
  ar: { failed: 'تعذّر تحميل هذا الجزء من البوابة.', retry: 'إعادة المحاولة' },
  en: { failed: 'This part of the portal could not be loaded.', retry: 'Try again' },
};

const offline = () => Promise.reject(new TypeError('Failed to fetch dynamically imported module'));

/** A module loader that fails `failures` times, then gives the component. */
function flakyLoader<P>(
  failures: number,
  component: ComponentType<P>,
): Mock<() => Promise<{ default: ComponentType<P> }>> {
  let calls = 0;
  return vi.fn(() => (++calls <= failures ? offline() : Promise.resolve({ default: component })));
}

function Part() {
  return <p>The part</p>;
}

/** A field typed into above the lazy part, as the dashboard form is above its dialog. */
function FormAround({ children }: { children: React.ReactNode }) {
  const [value, setValue] = useState('');
  return (
    <form>
      <input aria-label="KODE ID" value={value} onChange={(event) => setValue(event.target.value)} />
      {children}
    </form>
  );
}

function renderPart(load: () => Promise<{ default: ComponentType<object> }>, locale: Locale = 'fr') {
  const Lazy = retryableLazy(load);
  return renderWithApp(
    <FormAround>
      <ChunkErrorBoundary reset={Lazy.reset}>
        <Suspense fallback={<p>Loading</p>}>
          <Lazy />
        </Suspense>
      </ChunkErrorBoundary>
    </FormAround>,
    { locale },
  );
}

let consoleError: ReturnType<typeof vi.spyOn>;
beforeEach(() => {
  consoleError = vi.spyOn(console, 'error');
});
afterEach(() => {
  consoleError.mockRestore();
});

describe('a lazy part that fails to load', () => {
  it.each(['fr', 'ar', 'en'] as const)('says so in %s with a Retry button, and logs nothing', async (locale) => {
    await renderPart(flakyLoader(1, Part), locale);
    const alert = await screen.findByRole('alert');
    expect(alert.textContent).toContain(MESSAGES[locale].failed);
    expectVisible(screen.getByRole('button', { name: MESSAGES[locale].retry }));
    expect(consoleError).not.toHaveBeenCalled();
  });

  it('imports again on each Retry and shows the part once it loads, keeping what was typed', async () => {
    const load = flakyLoader(2, Part);
    await renderPart(load);
    await userEvent.type(screen.getByLabelText('KODE ID'), 'KODE000001');
    await screen.findByRole('alert');
    expect(load).toHaveBeenCalledTimes(1);

    await userEvent.click(screen.getByRole('button', { name: 'Réessayer' }));
    await waitFor(() => expect(load).toHaveBeenCalledTimes(2));
    await screen.findByRole('alert');

    await userEvent.click(screen.getByRole('button', { name: 'Réessayer' }));
    await screen.findByText('The part');
    expect(load).toHaveBeenCalledTimes(3);
    expect(screen.queryByRole('alert')).toBeNull();
    expect((screen.getByLabelText('KODE ID') as HTMLInputElement).value).toBe('KODE000001');
  });

  it('tries again when a failed preload is followed by a render', async () => {
    const load = flakyLoader(1, Part);
    const Lazy = retryableLazy(load);
    Lazy.preload();
    await waitFor(() => expect(load).toHaveBeenCalledTimes(1));
    await renderWithApp(
      <Suspense fallback={null}>
        <Lazy />
      </Suspense>,
    );
    await screen.findByText('The part');
    expect(load).toHaveBeenCalledTimes(2);
  });
});

describe('reportCaughtError', () => {
  it('keeps quiet about a chunk that could not load and logs any other error', () => {
    const quiet = vi.fn();
    consoleError.mockImplementation(quiet);
    reportCaughtError(new ChunkLoadError(new TypeError('Failed to fetch')));
    expect(quiet).not.toHaveBeenCalled();
    const bug = new Error('a bug');
    reportCaughtError(bug);
    expect(quiet).toHaveBeenCalledWith(bug);
  });
});

interface TestDialogProps {
  open: boolean;
  onCancel: () => void;
}

function TestDialogView({ open }: TestDialogProps) {
  return open ? <div role="dialog" aria-label="The dialog" /> : null;
}

function DialogHost({ Dialog }: { Dialog: ComponentType<TestDialogProps> }) {
  const [open, setOpen] = useState(false);
  return (
    <>
      <button type="button" onClick={() => setOpen(true)}>
        Open
      </button>
      <Dialog open={open} onCancel={() => setOpen(false)} />
    </>
  );
}

describe('lazyDialog', () => {
  it('stands a message with Retry and Cancel where the dialog would open, and opens it on Retry', async () => {
    let failing = true;
    const load = vi.fn(() => (failing ? offline() : Promise.resolve(TestDialogView)));
    const Dialog = lazyDialog(load, { isOpen: (props) => props.open, close: (props) => props.onCancel() });
    await renderWithApp(<DialogHost Dialog={Dialog} />);

    await userEvent.click(screen.getByRole('button', { name: 'Open' }));
    await screen.findByRole('alert');
    expect(load).toHaveBeenCalledTimes(1);
    // Cancel gives the dialog up, as its own Cancel would.
    await userEvent.click(screen.getByRole('button', { name: 'Annuler' }));
    await waitFor(() => expect(screen.queryByRole('alert')).toBeNull());

    // Opened again, it tries again (still failing here), and Retry then opens it.
    await userEvent.click(screen.getByRole('button', { name: 'Open' }));
    await screen.findByRole('alert');
    expect(load.mock.calls.length).toBeGreaterThan(1);
    failing = false;
    await userEvent.click(screen.getByRole('button', { name: 'Réessayer' }));
    await screen.findByRole('dialog', { name: 'The dialog' });
    expect(screen.queryByRole('alert')).toBeNull();
    expect(consoleError).not.toHaveBeenCalled();
  });
});

function TestMenu({ trigger, openOnMount }: LazyMenuBaseProps) {
  return (
    <>
      {trigger}
      {openOnMount && <div role="menu" aria-label="The menu" />}
    </>
  );
}

describe('LazyMenu', () => {
  it('keeps its trigger when the menu cannot load, says why, and loads it on the next press', async () => {
    let failing = true;
    const load = vi.fn(() => (failing ? offline() : Promise.resolve({ default: TestMenu })));
    const Menu = retryableLazy(load);
    await renderWithApp(<LazyMenu menu={Menu} menuProps={{}} trigger={<button type="button">Account</button>} />);

    await userEvent.click(screen.getByRole('button', { name: 'Account' }));
    await screen.findByText(MESSAGES.fr.failed);
    expect(screen.queryByRole('menu')).toBeNull();
    const attempts = load.mock.calls.length;

    failing = false;
    await userEvent.click(screen.getByRole('button', { name: 'Account' }));
    await screen.findByRole('menu', { name: 'The menu' });
    expect(load.mock.calls.length).toBeGreaterThan(attempts);
    // The toast goes with the failure.
    await waitFor(() => expect(screen.queryByText(MESSAGES.fr.failed)).toBeNull());
    expect(consoleError).not.toHaveBeenCalled();
  });
});
