import { Heading } from '@chakra-ui/react';

export default function ForgotPasswordPage() {
  return <Heading>ForgotPasswordPage</Heading>;
}
