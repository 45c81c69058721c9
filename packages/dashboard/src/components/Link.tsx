// An anchor that navigates inside the app without a reload; modified clicks (new tab, download) and other
// origins behave as plain links.
import type { AnchorHTMLAttributes, MouseEvent } from 'react';
import { navigate } from '../lib/router.ts';

export function Link({ href, onClick, ...rest }: AnchorHTMLAttributes<HTMLAnchorElement> & { href: string }) {
  const click = (e: MouseEvent<HTMLAnchorElement>): void => {
    onClick?.(e);
    if (e.defaultPrevented || e.button !== 0 || e.metaKey || e.ctrlKey || e.shiftKey || e.altKey) return;
    if (rest.target !== undefined && rest.target !== '_self') return;
    e.preventDefault();
    navigate(href);
  };
  return <a href={href} onClick={click} {...rest} />;
}
