import { Card, Heading, Stack, Text } from '@chakra-ui/react';
import { Trans } from '@lingui/react/macro';
import type { ReactNode } from 'react';
import { paths } from '../../../config/paths';
import { Logo } from '../../../components/Logo';
import { AppLink } from '../../../components/ui/app-link';

/** The frame of the public account screens: the logo, a title, an optional lead, the form. */
export function AuthCard({ title, lead, children }: { title: ReactNode; lead?: ReactNode; children: ReactNode }) {
  return (
    <Card.Root width="full" maxWidth="md" mx="auto" variant="elevated">
      <Card.Header>
        <Stack gap="4" align="center" textAlign="center">
          <Logo size="lg" />
          <Heading as="h1" size="xl">
            {title}
          </Heading>
          {lead && (
            <Text color="fg.muted" textAlign="start">
              {lead}
            </Text>
          )}
        </Stack>
      </Card.Header>
      <Card.Body>{children}</Card.Body>
    </Card.Root>
  );
}

/** The way back to sign-in under the forgotten-password and reset forms. */
export function BackToSignInLink() {
  return (
    <Text textAlign="center">
      <AppLink href={paths.login}>
        <Trans>Retour à la connexion</Trans>
      </AppLink>
    </Text>
  );
}
