import { HStack, Text } from '@chakra-ui/react';

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
