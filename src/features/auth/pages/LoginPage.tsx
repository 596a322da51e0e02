import { Heading } from '@chakra-ui/react';

export default function LoginPage() {
  return <Heading>LoginPage</Heading>;
}
