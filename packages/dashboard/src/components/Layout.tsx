// The frame of every signed-in page: a skip link, the header with the navigation and the tenant's name
// (always visible), sign-out, and the main region (which App focuses after an in-app navigation).
import { useEffect, type ReactNode } from 'react';
import { useSession } from '../lib/context.ts';
import { paths, useLocation } from '../lib/router.ts';
import { viewerZone } from '../lib/time.ts';
import { ErrorBoundary } from './ErrorBoundary.tsx';
import { Link } from './Link.tsx';

const NAV = [
  {
    href: paths.schedules(),
    label: 'Schedules',
    match: (p: string) => p === '/' || p.startsWith('/schedules') || p === '/new',
  },
  { href: paths.runs(), label: 'Runs', match: (p: string) => p.startsWith('/runs') },
  { href: paths.calendars(), label: 'Calendars', match: (p: string) => p.startsWith('/calendars') },
  { href: paths.health(), label: 'Health', match: (p: string) => p === '/health' },
];

export function Layout({ title, children }: { title: string; children: ReactNode }) {
  const { tenant, signOut } = useSession();
  const { pathname } = useLocation();
  useEffect(() => {
    document.title = `${title} · ${tenant.name} · Punctual`;
  }, [title, tenant.name]);
  return (
    <>
      <a className="skip" href="#main">
        Skip to content
      </a>
      <header className="top">
        <Link href={paths.schedules()} className="brand">
          Punctual
        </Link>
        <nav aria-label="Main">
          <ul>
            {NAV.map((n) => (
              <li key={n.href}>
                <Link href={n.href} aria-current={n.match(pathname) ? 'page' : undefined}>
                  {n.label}
                </Link>
              </li>
            ))}
          </ul>
        </nav>
        <div className="who">
          <span className="tenant" data-testid="tenant-name" title="Tenant">
            <span className="visually-hidden">Tenant: </span>
            {tenant.name}
          </span>
          <span className="zone" title="Your time zone">
            {viewerZone()}
          </span>
          <button type="button" onClick={() => signOut()}>
            Sign out
          </button>
        </div>
      </header>
      <main id="main" tabIndex={-1}>
        <ErrorBoundary what="this page" resetKey={pathname}>
          {children}
        </ErrorBoundary>
      </main>
    </>
  );
}
