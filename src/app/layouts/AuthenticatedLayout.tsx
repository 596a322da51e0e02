import { Badge, Box, Flex, HStack } from '@chakra-ui/react';
import { Trans } from '@lingui/react/macro';
import type { ReactNode } from 'react';
import { ColorModeToggle } from '../../components/ColorModeToggle';
import { LanguageSwitcher } from '../../components/LanguageSwitcher';
import { HydrateLater } from '../../components/ui/hydrate-later';
import { LogoLink } from '../../components/Logo';
import { ConnectivityIndicator } from '../../features/sync/components/ConnectivityIndicator';
import { SyncAlerts } from '../../features/sync/components/SyncAlerts';
import { paths } from '../../config/paths';
import { UserMenu } from './UserMenu';

/** docs/PRODUCT.md#the-header: a 60-pixel header, the child route in the main area. */
export const HEADER_HEIGHT = '60px';

export function AuthenticatedLayout({ children }: { children: ReactNode }) {
  return (
    <Flex direction="column" minHeight="100dvh">
      <Flex
        as="header"
        height={HEADER_HEIGHT}
        flexShrink={0}
        px={{ base: '2', md: '4' }}
        align="center"
        justify="space-between"
        bg="bg"
        borderBottomWidth="1px"
        position="sticky"
        top="0"
        zIndex="sticky"
      >
        {/* The screen's form is hydrated first (docs/ARCHITECTURE.md#start-up). */}
        <HydrateLater afterTheScreen>
          <HStack gap="2">
            <LogoLink href={paths.dashboard} />
            <Badge colorPalette="brand" variant="subtle" size="sm">
              <Trans>partenaire</Trans>
            </Badge>
          </HStack>
          <HStack gap={{ base: '0', md: '1' }}>
            <ConnectivityIndicator />
            <LanguageSwitcher />
            <ColorModeToggle />
            <UserMenu />
          </HStack>
        </HydrateLater>
      </Flex>
      <Box as="main" flex="1" px={{ base: '3', md: '6' }} pt={{ base: '3', md: '4' }} pb="3">
        <HydrateLater afterTheScreen>
          <SyncAlerts />
        </HydrateLater>
        {children}
      </Box>
    </Flex>
  );
}
