/** An in-app link: wouter's navigation with Chakra's link style, tall enough for a finger. */
import { Link, type LinkProps } from '@chakra-ui/react';
import { Link as RouterLink } from 'wouter';

export interface AppLinkProps extends Omit<LinkProps, 'href' | 'asChild'> {
  href: string;
}

export function AppLink({ href, children, ...props }: AppLinkProps) {
  return (
    <Link
      asChild
      color="brand.fg"
      fontWeight="medium"
      minHeight="44px"
      display="inline-flex"
      alignItems="center"
      {...props}
    >
      <RouterLink href={href}>{children}</RouterLink>
    </Link>
  );
}
