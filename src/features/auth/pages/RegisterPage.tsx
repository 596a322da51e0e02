import { Heading } from '@chakra-ui/react';

export default function RegisterPage() {
  return <Heading>RegisterPage</Heading>;
}
