/**
 * The theme registers only the recipes the portal uses (src/app/theme.ts). A Chakra component
 * used without its recipe renders unstyled without any error, so this test reads every Chakra
 * import in src/ and checks each component's recipes are registered.
 */
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { recipes, slotRecipes } from '../../../src/app/theme';

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
  mergeConfigs: null,
  useDisclosure: null,
  useFieldContext: null,
  useLocaleContext: null,
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
