import { Heading } from '@chakra-ui/react';

export default function ResetPasswordPage() {
  return <Heading>ResetPasswordPage</Heading>;
}
