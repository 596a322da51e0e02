import { Card, Heading, Stack, Text } from '@chakra-ui/react';
import type { ReactNode } from 'react';
import { Logo } from '../../../components/Logo';

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
