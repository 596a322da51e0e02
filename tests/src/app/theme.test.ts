/**
 * The theme registers only the recipes the portal uses (src/app/theme.ts). A Chakra component
 * used without its recipe renders unstyled without any error, so this test reads every Chakra
 * import in src/ and checks each component's recipes are registered.
 */
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { recipes, slotRecipes, system, UNNAMED_PALETTES } from '../../../src/app/theme';

/** Component → the recipes it reads; null for layout primitives and helpers without one. */
const RECIPES_OF: Record<string, string[] | null> = {
  Alert: ['alert'],
  Avatar: ['avatar'],
  Badge: ['badge'],
  Button: ['button'],
  Card: ['card'],
  Checkbox: ['checkbox', 'checkmark'],
  CloseButton: ['button'],
  Container: ['container'],
  DataList: ['dataList'],
  Dialog: ['dialog'],
  EmptyState: ['emptyState'],
  Field: ['field'],
  Heading: ['heading'],
  Icon: ['icon'],
  IconButton: ['button'],
  Input: ['input'],
  InputGroup: ['inputAddon'],
  Link: ['link'],
  List: ['list'],
  Menu: ['menu'],
  NativeSelect: ['nativeSelect'],
  Skeleton: ['skeleton'],
  Spinner: ['spinner'],
  Stat: ['stat'],
  Table: ['table'],
  Tabs: ['tabs'],
  Toast: ['toast'],
  Toaster: ['toast'],
  Box: null,
  Center: null,
  ChakraProvider: null,
  Flex: null,
  Grid: null,
  GridItem: null,
  Group: null,
  HStack: null,
  Image: null,
  LocaleProvider: null,
  Portal: null,
  SimpleGrid: null,
  Span: null,
  Stack: null,
  Text: null,
  VStack: null,
  VisuallyHidden: null,
  Wrap: null,
  chakra: null,
  createSystem: null,
  createToaster: null,
  defaultBaseConfig: null,
  defineConfig: null,
  useDisclosure: null,
  useFieldContext: null,
  useLocaleContext: null,
  // Static styles (src/components/ui/static-styles.ts): its callers name their recipes (badge, button, table).
  useChakraContext: null,
  // The portal's own tabs (src/components/ui/tabs.tsx) draw themselves with the tabs recipe.
  useSlotRecipe: ['tabs'],
};

function sourceFiles(dir: string): string[] {
  return fs.readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) return sourceFiles(full);
    return /\.tsx?$/.test(entry.name) ? [full] : [];
  });
}

function chakraImports(): Map<string, string> {
  const used = new Map<string, string>();
  const importPattern = /import\s*(type\s*)?\{([^}]*)\}\s*from\s*'@chakra-ui\/react'/g;
  for (const file of sourceFiles(path.resolve(import.meta.dirname, '../../../src'))) {
    for (const match of fs.readFileSync(file, 'utf8').matchAll(importPattern)) {
      // `import type { … }` brings types only, never a component.
      if (match[1]) continue;
      for (const raw of (match[2] ?? '').split(',')) {
        const name = raw
          .trim()
          .replace(/^type\s+/, '')
          .split(/\s+as\s+/)[0];
        if (name && /^[A-Za-z]/.test(name) && !raw.trim().startsWith('type ') && !/Props$/.test(name)) {
          used.set(name, path.relative(process.cwd(), file));
        }
      }
    }
  }
  return used;
}

/** Status colours Chakra's alerts and toasts take their palette from. */
const STATUS_PALETTES = ['blue', 'orange', 'green', 'red', 'gray'];

/** Every palette src/ names: colorPalette="…", a `palette: '…'` of a lookup table, a colour token "green.600". */
function namedPalettes(): Map<string, string> {
  const named = new Map<string, string>(STATUS_PALETTES.map((palette) => [palette, 'alerts and toasts']));
  const patterns = [
    /colorPalette[=:]\s*\{?\s*["'`]([a-z]+)["'`]/g,
    /palette:\s*'([a-z]+)'/g,
    /["'`{]([a-z]+)\.(?:[1-9]00|50|950|solid|contrast|fg|muted|subtle|emphasized|focusRing)["'`}]/g,
  ];
  for (const file of sourceFiles(path.resolve(import.meta.dirname, '../../../src'))) {
    const text = fs.readFileSync(file, 'utf8');
    for (const pattern of patterns) {
      for (const match of text.matchAll(pattern)) named.set(match[1]!, path.relative(process.cwd(), file));
    }
  }
  return named;
}

const hasToken = (name: string) => system.tokens.getByName(name) !== undefined;

describe('the colour palettes', () => {
  const named = namedPalettes();

  it('has every palette the portal names, in its scale and its semantic tokens', () => {
    const missing = [...named]
      .filter(([palette]) => !['bg', 'fg', 'border', 'colors'].includes(palette))
      .filter(([palette]) => !hasToken(`colors.${palette}.500`) || !hasToken(`colors.${palette}.solid`))
      .map(([palette, file]) => `${palette} (${file})`);
    expect(missing).toEqual([]);
    expect(named.has('brand')).toBe(true);
  });

  it('leaves out the palettes the portal never names', () => {
    for (const palette of UNNAMED_PALETTES) {
      expect(named.has(palette), `${palette} is named in src/: keep it in the theme`).toBe(false);
      expect(hasToken(`colors.${palette}.500`)).toBe(false);
      expect(hasToken(`colors.${palette}.solid`)).toBe(false);
    }
  });
});

describe('the trimmed Chakra theme', () => {
  const registered = new Set([...Object.keys(recipes), ...Object.keys(slotRecipes)]);

  it('knows every Chakra component the portal imports', () => {
    const unknown = [...chakraImports()].filter(([name]) => !(name in RECIPES_OF));
    expect(unknown, 'add these to RECIPES_OF and their recipes to src/app/theme.ts').toEqual([]);
  });

  it('registers the recipes of every component in use', () => {
    const missing = [...chakraImports()].flatMap(([name, file]) =>
      (RECIPES_OF[name] ?? [])
        .filter((recipe) => !registered.has(recipe))
        .map((recipe) => `${name} (${file}) needs ${recipe}`),
    );
    expect(missing).toEqual([]);
  });
});
