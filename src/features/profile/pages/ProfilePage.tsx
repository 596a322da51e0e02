import { Heading } from '@chakra-ui/react';

export default function ProfilePage() {
  return <Heading>ProfilePage</Heading>;
}
