import { chakra, HStack, Text } from '@chakra-ui/react';
import { Link } from 'wouter';

/** The brand name is a name, the same in every language. */
export const BRAND_NAME = 'KODE Garage';

/** The brand wordmark: the speedometer mark and the name. */
export function Logo({ size = 'md' }: { size?: 'md' | 'lg' }) {
  const mark = size === 'lg' ? 44 : 32;
  return (
    <HStack gap="2" dir="ltr">
      <img src="/favicon.svg" width={mark} height={mark} alt="" />
      <Text as="span" fontWeight="bold" fontSize={size === 'lg' ? '2xl' : 'lg'} letterSpacing="tight">
        {BRAND_NAME}
      </Text>
    </HStack>
  );
}

/** The wordmark as the way home from a header: a 44-pixel target, as every control of the header. */
export function LogoLink({ href }: { href: string }) {
  return (
    <Link href={href} asChild>
      <chakra.a aria-label={BRAND_NAME} display="inline-flex" alignItems="center" minHeight="11">
        <Logo />
      </chakra.a>
    </Link>
  );
}
