/**
 * The other tabs are there before they are opened (docs/ARCHITECTURE.md#start-up): their code loads at
 * the first moment to spare once the form is shown, without waiting for the mechanic's first input,
 * and a change of tab draws the tab opened, not the entry form kept behind it.
 */
import { act, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it, vi } from 'vitest';
import DashboardPage from '../../../../src/features/dashboard/pages/DashboardPage';
import { screenShown } from '../../../../src/lib/start-up';
import { renderWithApp } from '../../render';
import { useDashboardSetting } from './support';

const seen = vi.hoisted(() => ({ history: false, advices: false, formRenders: 0 }));

vi.mock('../../../../src/lib/api/client', async (importOriginal) => {
  const actual = await importOriginal<typeof import('../../../../src/lib/api/client')>();
  return { ...actual, apiRequest: vi.fn() };
});
vi.mock('../../../../src/features/dashboard/components/HistoryTable', async (importOriginal) => {
  seen.history = true;
  return importOriginal();
});
vi.mock('../../../../src/features/dashboard/components/AdvicesPanel', async (importOriginal) => {
  seen.advices = true;
  return importOriginal();
});
vi.mock('../../../../src/features/dashboard/components/RepairForm', async (importOriginal) => {
  const actual = await importOriginal<typeof import('../../../../src/features/dashboard/components/RepairForm')>();
  return {
    ...actual,
    RepairForm: () => {
      seen.formRenders += 1;
      return actual.RepairForm();
    },
  };
});

useDashboardSetting();

/** Resolves once the form has not been drawn for a while. */
async function formSettled(): Promise<void> {
  for (let last = -1; last !== seen.formRenders;) {
    last = seen.formRenders;
    await act(() => new Promise((resolve) => setTimeout(resolve, 150)));
  }
}

describe('the other tabs', () => {
  it('load once the form is shown, with no input, and a change of tab does not draw the form again', async () => {
    const user = userEvent.setup();
    await renderWithApp(<DashboardPage />);
    await screen.findByRole('textbox', { name: /KODE ID/ });
    expect(seen).toMatchObject({ history: false, advices: false });

    act(() => screenShown());
    await vi.waitFor(() => expect(seen).toMatchObject({ history: true, advices: true }));

    // The form's own data (repair types, statistics) arrives in its own time: counted from then on.
    await formSettled();
    const formRenders = seen.formRenders;
    await user.click(screen.getByRole('tab', { name: 'Historique' }));
    await screen.findByRole('tabpanel', { name: 'Historique' });
    await user.click(screen.getByRole('tab', { name: 'Conseils' }));
    await screen.findByRole('tabpanel', { name: 'Conseils' });
    expect(seen.formRenders).toBe(formRenders);
  });
});
