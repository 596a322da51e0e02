/**
 * The dashboard's tabs (src/components/ui/tabs.tsx): the WAI-ARIA tabs pattern with the mouse, touch
 * and the keyboard (mirrored in Arabic), a panel kept once opened so what was typed in it survives,
 * and the tab's panel code asked for as soon as the mechanic reaches for the tab.
 */
import { screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { useState } from 'react';
import { describe, expect, it, vi } from 'vitest';
import { Tabs } from '../../../src/components/ui/tabs';
import type { Locale } from '../../../src/lib/i18n';
import { renderWithApp } from '../render';

type Tab = 'add' | 'history' | 'advices';

function Dashboard({ onIntent = () => undefined }: { onIntent?: () => void }) {
  const [tab, setTab] = useState<Tab>('add');
  return (
    <Tabs
      value={tab}
      onValueChange={setTab}
      items={[
        { value: 'add', label: 'Nouvelle saisie', panel: <input aria-label="KODE ID" /> },
        { value: 'history', label: 'Historique', panel: <p>Les saisies</p>, onIntent },
        { value: 'advices', label: 'Conseils', panel: <p>Les conseils</p> },
      ]}
    />
  );
}

const tab = (name: string) => screen.getByRole('tab', { name });
const selectedTab = () => screen.getAllByRole('tab').find((each) => each.getAttribute('aria-selected') === 'true');

async function renderTabs(locale: Locale = 'fr', onIntent?: () => void) {
  await renderWithApp(<Dashboard onIntent={onIntent} />, { locale });
  return userEvent.setup();
}

describe('tabs', () => {
  it('show the selected tab’s panel, labelled by its tab, and open another on a tap', async () => {
    const user = await renderTabs();
    expect(screen.getByRole('tablist')).toBeDefined();
    expect(selectedTab()).toBe(tab('Nouvelle saisie'));
    const panel = screen.getByRole('tabpanel');
    expect(panel.getAttribute('aria-labelledby')).toBe(tab('Nouvelle saisie').id);
    expect(tab('Nouvelle saisie').getAttribute('aria-controls')).toBe(panel.id);
    expect(screen.queryByText('Les saisies')).toBeNull();

    await user.click(tab('Historique'));
    expect(selectedTab()).toBe(tab('Historique'));
    expect(screen.getByRole('tabpanel').textContent).toBe('Les saisies');
  });

  it('keep a panel once opened, with what was typed in it', async () => {
    const user = await renderTabs();
    await user.type(screen.getByRole('textbox', { name: 'KODE ID' }), 'KODE000001');
    await user.click(tab('Historique'));
    // Hidden, not unmounted: assistive technology and the page see only the selected panel.
    expect(screen.queryByRole('textbox', { name: 'KODE ID' })).toBeNull();
    await user.click(tab('Nouvelle saisie'));
    expect((screen.getByRole('textbox', { name: 'KODE ID' }) as HTMLInputElement).value).toBe('KODE000001');
  });

  it('put only the selected tab in the Tab order, and move with the arrow keys, Home and End', async () => {
    const user = await renderTabs();
    expect(screen.getAllByRole('tab').map((each) => each.tabIndex)).toEqual([0, -1, -1]);
    await user.tab();
    expect(document.activeElement).toBe(tab('Nouvelle saisie'));
    await user.keyboard('{ArrowRight}');
    expect(selectedTab()).toBe(tab('Historique'));
    expect(document.activeElement).toBe(tab('Historique'));
    expect(screen.getAllByRole('tab').map((each) => each.tabIndex)).toEqual([-1, 0, -1]);
    await user.keyboard('{End}');
    expect(selectedTab()).toBe(tab('Conseils'));
    await user.keyboard('{ArrowRight}');
    expect(selectedTab()).toBe(tab('Nouvelle saisie'));
    await user.keyboard('{ArrowLeft}');
    expect(selectedTab()).toBe(tab('Conseils'));
    await user.keyboard('{Home}');
    expect(selectedTab()).toBe(tab('Nouvelle saisie'));
    expect(document.activeElement).toBe(tab('Nouvelle saisie'));
  });

  it('follow the arrows’ direction in Arabic, right to left', async () => {
    const user = await renderTabs('ar');
    await user.tab();
    // The next tab sits on the left in Arabic.
    await user.keyboard('{ArrowLeft}');
    expect(selectedTab()).toBe(tab('Historique'));
    await user.keyboard('{ArrowRight}');
    expect(selectedTab()).toBe(tab('Nouvelle saisie'));
  });

  it('ask for a tab’s panel when the mechanic reaches for the tab, before the tap', async () => {
    const onIntent = vi.fn();
    const user = await renderTabs('fr', onIntent);
    await user.hover(tab('Historique'));
    expect(onIntent).toHaveBeenCalled();
    onIntent.mockClear();
    await user.tab();
    await user.keyboard('{ArrowRight}');
    expect(onIntent).toHaveBeenCalled();
  });
});
