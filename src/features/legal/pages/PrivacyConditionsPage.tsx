import { Heading } from '@chakra-ui/react';

export default function PrivacyConditionsPage() {
  return <Heading>PrivacyConditionsPage</Heading>;
}
