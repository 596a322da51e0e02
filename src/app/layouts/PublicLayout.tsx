import { Box, Container, Flex, HStack } from '@chakra-ui/react';
import type { ReactNode } from 'react';
import { ColorModeToggle } from '../../components/ColorModeToggle';
import { LanguageSwitcher } from '../../components/LanguageSwitcher';
import { HydrateLater } from '../../components/ui/hydrate-later';
import { LogoLink } from '../../components/Logo';
import { paths } from '../../config/paths';

/**
 * Sign-in, registration, the legal text and a certificate's page: a language toggle and a theme switch
 * above the page. `wide`: a column for a page of tables (a certificate) rather than a form's.
 */
export function PublicLayout({ children, wide = false }: { children: ReactNode; wide?: boolean }) {
  return (
    <Flex direction="column" minHeight="100dvh">
      <Flex as="header" height="60px" px={{ base: '3', md: '6' }} align="center" justify="space-between">
        <LogoLink href={paths.login} />
        {/* The page's form is hydrated first (docs/ARCHITECTURE.md#start-up). */}
        <HydrateLater afterTheScreen>
          <HStack gap="1">
            <LanguageSwitcher />
            <ColorModeToggle />
          </HStack>
        </HydrateLater>
      </Flex>
      <Box as="main" flex="1" py={{ base: '4', md: '8' }}>
        <Container maxWidth={wide ? '5xl' : 'lg'}>{children}</Container>
      </Box>
    </Flex>
  );
}
