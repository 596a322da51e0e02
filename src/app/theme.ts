import { createSystem, defaultConfig, defineConfig } from '@chakra-ui/react';

/** The portal's brand on top of Chakra's defaults: a workshop blue and an amber accent. */
const config = defineConfig({
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
      },
    },
  },
});

export const system = createSystem(defaultConfig, config);
