/**
 * Parts loaded on demand and loaded ahead (src/components/ui/retryable-lazy.ts, src/lib/lazy-catalog.ts):
 * once their code and words are here, they are drawn in the render that shows them, with no fallback
 * in between (React would hold the content back after a fallback).
 */
import { act, screen } from '@testing-library/react';
import { useLingui } from '@lingui/react/macro';
import { Suspense, useState } from 'react';
import { describe, expect, it, vi } from 'vitest';
import { retryableLazy } from '../../../src/components/ui/retryable-lazy';
import { activateLocale } from '../../../src/lib/i18n';
import { lazyCatalog } from '../../../src/lib/lazy-catalog';
import { renderWithApp } from '../render';

/** Renders `shown` or a button that shows it, inside a boundary that records whether its fallback was ever drawn. */
function Switch({ children, onFallback }: { children: React.ReactNode; onFallback: () => void }) {
  const [open, setOpen] = useState(false);
  function Fallback() {
    onFallback();
    return <p>Loading</p>;
  }
  return open ? (
    <Suspense fallback={<Fallback />}>{children}</Suspense>
  ) : (
    <button type="button" onClick={() => setOpen(true)}>
      Open
    </button>
  );
}

/** Renders `part` behind an Open button, opens it, and says whether its boundary ever drew the fallback. */
async function open(part: React.ReactNode): Promise<{ fellBack: boolean }> {
  const fallback = vi.fn();
  await renderWithApp(<Switch onFallback={fallback}>{part}</Switch>);
  act(() => screen.getByRole('button', { name: 'Open' }).click());
  return { fellBack: fallback.mock.calls.length > 0 };
}

describe('a part loaded ahead', () => {
  it('is drawn in the render that opens it, without a fallback', async () => {
    const Part = retryableLazy(() => Promise.resolve({ default: () => <p>The part</p> }));
    Part.preload();
    await act(() => Promise.resolve());
    const { fellBack } = await open(<Part />);
    expect(screen.getByText('The part')).toBeTruthy();
    expect(fellBack).toBe(false);
  });

  it('waits behind its fallback when it was not loaded ahead', async () => {
    const Part = retryableLazy(() => Promise.resolve({ default: () => <p>The part</p> }));
    const { fellBack } = await open(<Part />);
    expect(fellBack).toBe(true);
    expect(await screen.findByText('The part')).toBeTruthy();
  });

  it('has its words at the first render once they were loaded ahead', async () => {
    const useWords = lazyCatalog({
      fr: () => Promise.resolve({ messages: { preloadedPart: 'Les mots de la partie' } }),
      ar: () => Promise.resolve({ messages: { preloadedPart: 'كلمات الجزء' } }),
      en: () => Promise.resolve({ messages: { preloadedPart: 'The part’s words' } }),
    });
    function Words() {
      useWords();
      const { i18n: active } = useLingui();
      return <p>{active._('preloadedPart')}</p>;
    }
    await activateLocale('fr');
    useWords.preload();
    await act(() => new Promise((resolve) => setTimeout(resolve, 0)));
    const { fellBack } = await open(<Words />);
    expect(screen.getByText('Les mots de la partie')).toBeTruthy();
    expect(fellBack).toBe(false);
  });

  it('whose words cannot be fetched ahead reports nothing, and its hook tries again', async () => {
    const fetchWords = vi
      .fn()
      .mockRejectedValueOnce(new TypeError('Failed to fetch dynamically imported module'))
      .mockResolvedValue({ messages: { preloadedPart: 'Les mots de la partie' } });
    const useWords = lazyCatalog({ fr: fetchWords, ar: fetchWords, en: fetchWords });
    await activateLocale('fr');
    // Vitest fails the run on an unhandled rejection: a failed preload must leave none.
    await useWords.preload();
    await act(() => new Promise((resolve) => setTimeout(resolve, 0)));
    expect(useWords.isLoaded()).toBe(false);
    await useWords.preload();
    expect(fetchWords).toHaveBeenCalledTimes(2);
  });
});
