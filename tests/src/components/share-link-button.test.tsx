/**
 * ShareLinkButton: the device's share sheet where there is one, otherwise the link copied ('Lien copié'),
 * and where the clipboard refuses, the link selected in a field to copy by hand. A share sheet closed
 * without sharing is no failure.
 */
import { screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { ShareLinkButton } from '../../../src/components/ShareLinkButton';
import { renderWithApp } from '../render';
import { clearToasts, expectToast, toasts } from '../support/api';
import { expectVisible } from '../support/dom';

const URL = 'https://portail.example.dz/c/7K3M-9QXD-2F8R-TN4W';
const user = () => userEvent.setup({ delay: null });

/** Puts a browser API on the navigator for one test (jsdom has neither of these). */
function give(name: 'share' | 'clipboard', value: unknown) {
  Object.defineProperty(navigator, name, { value, configurable: true, writable: true });
}

const writeText = vi.fn<(text: string) => Promise<void>>();

async function share() {
  const clicks = user();
  // After user-event's set-up, which puts a clipboard of its own on the navigator.
  give('clipboard', { writeText });
  await renderWithApp(<ShareLinkButton url={URL} title="Certificat kilométrique" text="Relevés certifiés" />);
  await clicks.click(screen.getByRole('button', { name: 'Partager' }));
}

beforeEach(() => {
  writeText.mockReset().mockResolvedValue(undefined);
});
afterEach(() => {
  clearToasts();
  Reflect.deleteProperty(navigator, 'share');
  Reflect.deleteProperty(navigator, 'clipboard');
});

describe('ShareLinkButton', () => {
  it('opens the share sheet with the title, the text and the link', async () => {
    const shareSheet = vi.fn().mockResolvedValue(undefined);
    give('share', shareSheet);
    await share();
    expect(shareSheet).toHaveBeenCalledWith({ title: 'Certificat kilométrique', text: 'Relevés certifiés', url: URL });
    expect(writeText).not.toHaveBeenCalled();
  });

  it('takes a share sheet closed without sharing as done, not as a failure', async () => {
    give('share', vi.fn().mockRejectedValue(new DOMException('Share canceled', 'AbortError')));
    await share();
    expect(writeText).not.toHaveBeenCalled();
    expect(toasts()).toEqual([]);
    expect(screen.queryByRole('textbox')).toBeNull();
  });

  it('copies the link where there is no share sheet, and says "Lien copié"', async () => {
    await share();
    expect(writeText).toHaveBeenCalledWith(URL);
    await expectToast({ type: 'success', title: 'Lien copié', description: undefined });
  });

  it('copies the link when the share sheet fails', async () => {
    give('share', vi.fn().mockRejectedValue(new DOMException('Not allowed', 'NotAllowedError')));
    await share();
    expect(writeText).toHaveBeenCalledWith(URL);
    await expectToast({ type: 'success', title: 'Lien copié', description: undefined });
  });

  it('shows the link selected in a field when the clipboard refuses', async () => {
    writeText.mockRejectedValue(new DOMException('Denied', 'NotAllowedError'));
    await share();
    const field = expectVisible(await screen.findByRole<HTMLInputElement>('textbox', { name: 'Lien à copier' }));
    expect(field.value).toBe(URL);
    await waitFor(() => expect([field.selectionStart, field.selectionEnd]).toEqual([0, URL.length]));
    expect(screen.getByText('Copiez ce lien :')).toBeTruthy();
    expect(toasts()).toEqual([]);
  });
});
