/**
 * What was typed into a prerendered form before the app hydrated it becomes the form's own
 * (src/lib/typed-before-hydration.ts, docs/ARCHITECTURE.md#prerendered-first-screens).
 */
import { act } from '@testing-library/react';
import { useRef, useState } from 'react';
import { createRoot, hydrateRoot, type Root } from 'react-dom/client';
import { renderToString } from 'react-dom/server';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { noteServedFields, useTypedValuesHandedOver } from '../../../src/lib/typed-before-hydration';

const changes = vi.fn();
const submitted = vi.fn();

function Form() {
  const [email, setEmail] = useState('');
  const [remember, setRemember] = useState(false);
  const [type, setType] = useState('');
  const [note, setNote] = useState('');
  const form = useRef<HTMLFormElement>(null);
  useTypedValuesHandedOver(form);
  const changed =
    <T,>(set: (value: T) => void) =>
    (value: T) => {
      changes(value);
      set(value);
    };
  return (
    <form
      ref={form}
      onSubmit={(event) => {
        event.preventDefault();
        submitted({ email, remember, type, note });
      }}
    >
      <input name="email" value={email} onChange={(event) => changed(setEmail)(event.target.value)} />
      <input
        type="checkbox"
        name="remember"
        checked={remember}
        onChange={(event) => changed(setRemember)(event.target.checked)}
      />
      <select name="type" value={type} onChange={(event) => changed(setType)(event.target.value)}>
        <option value="">Choisir</option>
        <option value="oil">Vidange</option>
      </select>
      <textarea name="note" value={note} onChange={(event) => changed(setNote)(event.target.value)} />
      <output>{[email, String(remember), type, note].join('|')}</output>
    </form>
  );
}

let root: Root | null = null;
afterEach(() => {
  act(() => root?.unmount());
  root = null;
  document.body.innerHTML = '';
  changes.mockClear();
  submitted.mockClear();
});

/** The page as the HTML brought it. */
function servedPage(): HTMLElement {
  const container = document.createElement('div');
  container.innerHTML = renderToString(<Form />);
  document.body.append(container);
  return container;
}

const field = <E extends Element>(container: HTMLElement, name: string) =>
  container.querySelector<E & Element>(`[name="${name}"]`)!;

/** What a mechanic does to the HTML's fields before any script: the browser's own editing. */
function typeBeforeScript(container: HTMLElement) {
  field<HTMLInputElement>(container, 'email').value = 'garage@example.dz';
  field<HTMLInputElement>(container, 'remember').checked = true;
  field<HTMLSelectElement>(container, 'type').value = 'oil';
  field<HTMLTextAreaElement>(container, 'note').value = 'Bruit au freinage';
}

describe('a prerendered form typed in before hydration', () => {
  it('holds every value typed, ticked or chosen once hydrated, and keeps it on screen', async () => {
    const container = servedPage();
    typeBeforeScript(container);
    noteServedFields(container);
    await act(async () => {
      root = hydrateRoot(container, <Form />);
    });
    expect(container.querySelector('output')!.textContent).toBe('garage@example.dz|true|oil|Bruit au freinage');
    expect(field<HTMLInputElement>(container, 'email').value).toBe('garage@example.dz');
    expect(field<HTMLInputElement>(container, 'remember').checked).toBe(true);
    // And the form goes on from there: the next keystroke adds to what was typed.
    const email = field<HTMLInputElement>(container, 'email');
    await act(async () => {
      Object.getOwnPropertyDescriptor(HTMLInputElement.prototype, 'value')!.set!.call(email, 'garage@example.dzz');
      email.dispatchEvent(new Event('input', { bubbles: true }));
    });
    expect(container.querySelector('output')!.textContent).toBe('garage@example.dzz|true|oil|Bruit au freinage');
  });

  it('holds a submission asked for before hydration and makes it once the typed values are the form’s', async () => {
    const container = servedPage();
    typeBeforeScript(container);
    noteServedFields(container);
    const form = container.querySelector('form')!;
    const early = new Event('submit', { bubbles: true, cancelable: true });
    form.dispatchEvent(early);
    // The browser's own submission does nothing (and here the app's code has not taken the form yet).
    expect(early.defaultPrevented).toBe(true);
    await act(async () => {
      root = hydrateRoot(container, <Form />);
    });
    await vi.waitFor(() => expect(submitted).toHaveBeenCalledTimes(1));
    expect(submitted).toHaveBeenCalledWith({
      email: 'garage@example.dz',
      remember: true,
      type: 'oil',
      note: 'Bruit au freinage',
    });
    // Once hydrated, a submission is the form's own, at once.
    await act(async () => form.requestSubmit());
    expect(submitted).toHaveBeenCalledTimes(2);
  });

  it('changes nothing in a form left as the HTML brought it', async () => {
    const container = servedPage();
    noteServedFields(container);
    await act(async () => {
      root = hydrateRoot(container, <Form />);
    });
    expect(changes).not.toHaveBeenCalled();
    expect(container.querySelector('output')!.textContent).toBe('|false||');
  });

  it('leaves a form rendered in the browser alone', async () => {
    const container = servedPage();
    noteServedFields(container);
    container.innerHTML = '';
    await act(async () => {
      root = createRoot(container);
      root.render(<Form />);
    });
    expect(changes).not.toHaveBeenCalled();
  });
});
