/**
 * The screens' live reads of the tablet's database (src/lib/local-query.ts): the initial value until
 * the database's code has loaded and answered, then every write to what they read.
 */
import { act, render, screen } from '@testing-library/react';
import { Component, type ReactNode } from 'react';
import { afterEach, describe, expect, it } from 'vitest';
import { db } from '../../../src/lib/db';
import { loadLocalStore, useLocalQuery } from '../../../src/lib/local-query';

afterEach(async () => {
  await db.meta.clear();
});

function Note({ noteKey }: { noteKey: string }) {
  const note = useLocalQuery(async ({ readMeta }) => (await readMeta<string>(noteKey)) ?? 'none', [noteKey], 'reading');
  return <p>{note}</p>;
}

/** A write to the table a read is reading, made outside that read (Dexie then reads again). */
function writeElsewhere(read: number): Promise<void> {
  return new Promise((resolve) => {
    setTimeout(() => {
      void db.meta.put({ key: `other-${read}`, value: read }).then(() => setTimeout(resolve, 10));
    }, 0);
  });
}

class Boundary extends Component<{ children: ReactNode }, { error: string | null }> {
  override state = { error: null };
  static getDerivedStateFromError(error: unknown) {
    return { error: error instanceof Error ? error.message : String(error) };
  }
  override render() {
    return this.state.error ? <p>failed: {this.state.error}</p> : this.props.children;
  }
}

describe('a live read of the tablet’s database', () => {
  it('shows its initial value first, then what is stored, then every write', async () => {
    await db.meta.put({ key: 'note', value: 'oil change due' });
    render(<Note noteKey="note" />);
    expect(screen.getByText('reading')).toBeTruthy();
    await screen.findByText('oil change due');
    await act(() => db.meta.put({ key: 'note', value: 'done' }));
    await screen.findByText('done');
  });

  it('reads again when its dependencies change', async () => {
    await db.meta.bulkPut([
      { key: 'a', value: 'first' },
      { key: 'b', value: 'second' },
    ]);
    const { rerender } = render(<Note noteKey="a" />);
    await screen.findByText('first');
    rerender(<Note noteKey="b" />);
    await screen.findByText('second');
  });

  it('hands a failed read to the nearest error boundary', async () => {
    function Broken() {
      useLocalQuery(() => Promise.reject(new Error('disk full')), [], null);
      return <p>never</p>;
    }
    const quiet = console.error;
    console.error = () => undefined;
    try {
      render(
        <Boundary>
          <Broken />
        </Boundary>,
      );
      await screen.findByText('failed: disk full');
    } finally {
      console.error = quiet;
    }
  });

  it('shows its first read while writes keep touching what it reads (a sender going through its outbox)', async () => {
    await db.meta.put({ key: 'note', value: 'oil change due' });
    // Each read is touched by a write while it runs, until the fifth: the sender's pass, say.
    let reads = 0;
    const shown: string[] = [];
    function Busy() {
      const note = useLocalQuery(
        async ({ db: store }) => {
          reads += 1;
          const read = reads;
          const value = (await store.meta.get('note'))?.value;
          if (read < 5) await writeElsewhere(read);
          await store.meta.count();
          return `${String(value)} (read ${read})`;
        },
        [],
        'reading',
      );
      shown.push(note);
      return <p>{note}</p>;
    }
    render(<Busy />);
    await screen.findByText('oil change due (read 5)');
    expect(shown.filter((note) => note !== 'reading')[0]).toBe('oil change due (read 1)');
  });

  it('loads the database’s module once for every reader', async () => {
    expect(await loadLocalStore()).toBe(await loadLocalStore());
  });
});
