/**
 * Tabs drawn with Chakra's tabs recipe but driven by a few lines of React instead of Zag's tabs
 * machine: the dashboard is the only screen with tabs, and the machine with its runtime (about 10 KB
 * of gzip JavaScript) would load before the form can be typed in (docs/ARCHITECTURE.md#start-up).
 *
 * What it keeps of the WAI-ARIA tabs pattern: a tablist of tabs, each controlling its panel; one tab
 * in the Tab order (the selected one); Arrow keys move between tabs and select them (mirrored in
 * right-to-left), Home and End go to the first and last. Like Chakra's `lazyMount`, a panel is
 * rendered once first opened and then kept (hidden), so a half-typed form survives a look at the
 * history.
 */
import { Box, chakra, useLocaleContext, useSlotRecipe, type SystemStyleObject } from '@chakra-ui/react';
import { useId, useRef, useState, type KeyboardEvent, type ReactNode } from 'react';
import { HydrateLater } from './hydrate-later';

export interface TabItem<Value extends string> {
  value: Value;
  label: ReactNode;
  panel: ReactNode;
  /** Called when the mechanic reaches for the tab (pointer over or down, keyboard focus): a panel whose code loads on demand starts loading then. */
  onIntent?: () => void;
}

interface TabsProps<Value extends string> {
  items: readonly TabItem<Value>[];
  value: Value;
  onValueChange: (value: Value) => void;
  /** The touch target of a tab (Chakra size token). */
  triggerMinHeight?: string;
}

const ORIENTATION = { 'data-orientation': 'horizontal' } as const;

/** The tab a key moves to, or null when the key is not one the tablist handles. */
function targetIndex(key: string, current: number, count: number, rtl: boolean): number | null {
  const next = (current + 1) % count;
  const previous = (current - 1 + count) % count;
  switch (key) {
    case 'ArrowRight':
      return rtl ? previous : next;
    case 'ArrowLeft':
      return rtl ? next : previous;
    case 'Home':
      return 0;
    case 'End':
      return count - 1;
    default:
      return null;
  }
}

export function Tabs<Value extends string>({ items, value, onValueChange, triggerMinHeight }: TabsProps<Value>) {
  const recipe = useSlotRecipe({ key: 'tabs' });
  const styles = recipe({ variant: 'line', size: 'lg' }) as Record<
    'root' | 'list' | 'trigger' | 'content',
    SystemStyleObject
  >;
  const { dir } = useLocaleContext();
  const id = useId();
  const triggers = useRef(new Map<Value, HTMLButtonElement>());
  // Panels opened once stay mounted; the selected one is always among them.
  const [opened, setOpened] = useState<ReadonlySet<Value>>(() => new Set([value]));
  if (!opened.has(value)) setOpened(new Set([...opened, value]));

  const onKeyDown = (event: KeyboardEvent<HTMLDivElement>) => {
    const current = items.findIndex((item) => item.value === value);
    const target = targetIndex(event.key, current, items.length, dir === 'rtl');
    if (target === null) return;
    event.preventDefault();
    const next = items[target]!.value;
    onValueChange(next);
    triggers.current.get(next)?.focus();
  };

  const tabId = (item: Value) => `${id}-tab-${item}`;
  const panelId = (item: Value) => `${id}-panel-${item}`;
  return (
    <Box css={styles.root} {...ORIENTATION} className="chakra-tabs__root">
      {/* The open panel (a form, say) is hydrated before the tab list (docs/ARCHITECTURE.md#start-up). */}
      <HydrateLater>
        <chakra.div
          role="tablist"
          aria-orientation="horizontal"
          css={{ ...styles.list, overflowX: 'auto' }}
          {...ORIENTATION}
          onKeyDown={onKeyDown}
        >
          {items.map((item) => {
            const selected = item.value === value;
            return (
              <chakra.button
                key={item.value}
                ref={(element: HTMLButtonElement | null) => {
                  if (element) triggers.current.set(item.value, element);
                  else triggers.current.delete(item.value);
                }}
                type="button"
                role="tab"
                id={tabId(item.value)}
                aria-selected={selected}
                aria-controls={panelId(item.value)}
                tabIndex={selected ? 0 : -1}
                data-value={item.value}
                css={{ ...styles.trigger, minHeight: triggerMinHeight }}
                {...ORIENTATION}
                onClick={() => onValueChange(item.value)}
                onPointerEnter={item.onIntent}
                onPointerDown={item.onIntent}
                onFocus={item.onIntent}
              >
                {item.label}
              </chakra.button>
            );
          })}
        </chakra.div>
      </HydrateLater>
      {items.map((item) =>
        opened.has(item.value) ? (
          <chakra.div
            key={item.value}
            role="tabpanel"
            id={panelId(item.value)}
            aria-labelledby={tabId(item.value)}
            tabIndex={0}
            hidden={item.value !== value}
            // Half the recipe's space above the panel: the entry below needs the height on a landscape tablet.
            css={{ ...styles.content, pt: '2' }}
            {...ORIENTATION}
          >
            {item.panel}
          </chakra.div>
        ) : null,
      )}
    </Box>
  );
}
