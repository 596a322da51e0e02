/**
 * The portal's design system: Chakra's base (conditions, utilities) and tokens, our brand colours,
 * and only the component recipes the portal uses. Chakra's default config registers ~75 recipes;
 * registering ours alone keeps the first load small. tests/src/app/theme.test.ts fails when a
 * component is used without its recipe here.
 */
import { createSystem, defaultBaseConfig, defineConfig } from '@chakra-ui/react';
import {
  alertSlotRecipe,
  animationStyles,
  avatarSlotRecipe,
  badgeRecipe,
  breakpoints,
  buttonRecipe,
  cardSlotRecipe,
  checkboxSlotRecipe,
  checkmarkRecipe,
  containerRecipe,
  dataListSlotRecipe,
  dialogSlotRecipe,
  emptyStateSlotRecipe,
  fieldSlotRecipe,
  globalCss as chakraGlobalCss,
  headingRecipe,
  iconRecipe,
  inputAddonRecipe,
  inputRecipe,
  keyframes,
  layerStyles,
  linkRecipe,
  listSlotRecipe,
  menuSlotRecipe,
  nativeSelectSlotRecipe,
  semanticTokens,
  skeletonRecipe,
  spinnerRecipe,
  statSlotRecipe,
  tableSlotRecipe,
  tabsSlotRecipe,
  textStyles,
  toastSlotRecipe,
  tokens,
} from '@chakra-ui/react/theme';

/** Read-only inputs (the looked-up vehicle, the profile before Update) look like values, not like fields to type in. */
const portalInputRecipe = { ...inputRecipe, base: { ...inputRecipe.base, _readOnly: { bg: 'bg.muted' } } };

/**
 * Menus are used with a finger: every item is a 48-pixel target, and its icon 20 pixels. Chakra's
 * recipe leaves an item's SVG unsized, and an SVG without a size fills its item (docs/PRODUCT.md#the-header).
 */
const portalMenuSlotRecipe = {
  ...menuSlotRecipe,
  base: {
    ...menuSlotRecipe.base,
    item: { ...menuSlotRecipe.base?.item, minHeight: '12', gap: '3', '& :where(svg)': { boxSize: '5' } },
  },
};

export const recipes = {
  badge: badgeRecipe,
  button: buttonRecipe,
  checkmark: checkmarkRecipe,
  container: containerRecipe,
  heading: headingRecipe,
  icon: iconRecipe,
  input: portalInputRecipe,
  inputAddon: inputAddonRecipe,
  link: linkRecipe,
  skeleton: skeletonRecipe,
  spinner: spinnerRecipe,
};

export const slotRecipes = {
  alert: alertSlotRecipe,
  avatar: avatarSlotRecipe,
  card: cardSlotRecipe,
  checkbox: checkboxSlotRecipe,
  dataList: dataListSlotRecipe,
  dialog: dialogSlotRecipe,
  emptyState: emptyStateSlotRecipe,
  field: fieldSlotRecipe,
  list: listSlotRecipe,
  menu: portalMenuSlotRecipe,
  nativeSelect: nativeSelectSlotRecipe,
  stat: statSlotRecipe,
  table: tableSlotRecipe,
  tabs: tabsSlotRecipe,
  toast: toastSlotRecipe,
};

/**
 * Chakra's colour palettes the portal never names (it uses gray, red, orange, green, blue and purple,
 * and its brand): left out, createSystem builds a quarter fewer colour tokens at every start and every
 * page's HTML carries fewer variables. tests/src/app/theme.test.ts fails when one is named in src/.
 */
export const UNNAMED_PALETTES: ReadonlySet<string> = new Set(['yellow', 'teal', 'cyan', 'pink']);

function withoutUnnamedPalettes<T extends object>(colours: T): T {
  return Object.fromEntries(Object.entries(colours).filter(([name]) => !UNNAMED_PALETTES.has(name))) as T;
}

const chakraTheme = defineConfig({
  preflight: true,
  cssVarsPrefix: 'chakra',
  cssVarsRoot: ':where(html, .chakra-theme)',
  globalCss: chakraGlobalCss,
  theme: {
    breakpoints,
    keyframes,
    tokens: { ...tokens, colors: withoutUnnamedPalettes(tokens.colors) },
    semanticTokens: { ...semanticTokens, colors: withoutUnnamedPalettes(semanticTokens.colors) },
    recipes,
    slotRecipes,
    textStyles,
    layerStyles,
    animationStyles,
  },
});

/** The brand on top: a workshop blue and an amber accent. */
const brand = defineConfig({
  globalCss: {
    'html, body': { minHeight: '100%' },
    body: { bg: 'bg.subtle' },
  },
  theme: {
    tokens: {
      colors: {
        brand: {
          50: { value: '#eaf1fb' },
          100: { value: '#c9dbf3' },
          200: { value: '#9fbfe8' },
          300: { value: '#6e9ed9' },
          400: { value: '#3f7cc7' },
          500: { value: '#1c4f8c' },
          600: { value: '#18457a' },
          700: { value: '#133862' },
          800: { value: '#0e2a4a' },
          900: { value: '#091c31' },
          950: { value: '#050f1b' },
        },
      },
    },
    semanticTokens: {
      colors: {
        brand: {
          solid: { value: { _light: '{colors.brand.500}', _dark: '{colors.brand.300}' } },
          contrast: { value: { _light: 'white', _dark: '{colors.brand.950}' } },
          fg: { value: { _light: '{colors.brand.600}', _dark: '{colors.brand.200}' } },
          muted: { value: { _light: '{colors.brand.100}', _dark: '{colors.brand.800}' } },
          subtle: { value: { _light: '{colors.brand.50}', _dark: '{colors.brand.900}' } },
          emphasized: { value: { _light: '{colors.brand.200}', _dark: '{colors.brand.700}' } },
          focusRing: { value: { _light: '{colors.brand.500}', _dark: '{colors.brand.300}' } },
        },
        // Status text at WCAG AA (4.5:1) on white and bg.subtle: Chakra's light defaults fall short
        // (red.500 3.8:1 for field errors, green.600 3.3:1 for "online", orange.600 3.6:1).
        fg: {
          error: { value: { _light: '{colors.red.600}', _dark: '{colors.red.400}' } },
          success: { value: { _light: '{colors.green.700}', _dark: '{colors.green.300}' } },
          warning: { value: { _light: '{colors.orange.700}', _dark: '{colors.orange.300}' } },
        },
      },
    },
  },
});

// createSystem merges its configs itself (a deep clone of each, then a walk of the tokens): merged
// beforehand, that work was done twice at every start.
export const system = createSystem(defaultBaseConfig, chakraTheme, brand);
