// The application: signs in (or resumes the session's key), provides the session to every page, and shows
// the page the location names.
import { QueryClientProvider } from '@tanstack/react-query';
import { useEffect, useMemo, useRef, useState } from 'react';
import { createApi, storedKey, storeKey, type Api, type Tenant } from '../api.ts';
import { SessionContext, type Session } from '../lib/context.ts';
import { describeError } from '../lib/errors.ts';
import { createQueryClient } from '../lib/query.ts';
import { matchRoute, useLocation } from '../lib/router.ts';
import { CalendarDetail } from '../pages/CalendarDetail.tsx';
import { Calendars } from '../pages/Calendars.tsx';
import { Health } from '../pages/Health.tsx';
import { ErrorBoundary } from './ErrorBoundary.tsx';
import { Layout } from './Layout.tsx';
import { NotFound } from '../pages/NotFound.tsx';
import { RunDetail } from '../pages/RunDetail.tsx';
import { Runs } from '../pages/Runs.tsx';
import { ScheduleDetail } from '../pages/ScheduleDetail.tsx';
import { ScheduleForm } from '../pages/ScheduleForm.tsx';
import { Schedules } from '../pages/Schedules.tsx';
import { SignIn } from '../pages/SignIn.tsx';

/** The page, behind an error boundary whose fallback keeps the navigation and Sign out. */
function SafePage() {
  const { pathname } = useLocation();
  return (
    <ErrorBoundary
      resetKey={pathname}
      what="this page"
      fallback={(e) => (
        <Layout title="Error">
          <h1>Something went wrong</h1>
          <p className="status status-error" role="alert" data-testid="page-error">
            This page could not be shown: {e.message}
          </p>
        </Layout>
      )}
    >
      <Page />
    </ErrorBoundary>
  );
}

function Page() {
  const { pathname } = useLocation();
  const route = matchRoute(pathname);
  // After an in-app navigation (not the first load), focus the new page so it is announced and Tab starts there.
  const shown = useRef(pathname);
  useEffect(() => {
    if (shown.current === pathname) return;
    shown.current = pathname;
    document.getElementById('main')?.focus();
  }, [pathname]);
  switch (route.name) {
    case 'schedules':
      return <Schedules />;
    case 'scheduleNew':
      return <ScheduleForm key="new" />;
    case 'schedule':
      return <ScheduleDetail key={route.key} scheduleKey={route.key} />;
    case 'scheduleEdit':
      return <ScheduleForm key={`edit:${route.key}`} editKey={route.key} />;
    case 'runs':
      return <Runs />;
    case 'run':
      return <RunDetail key={route.id} id={route.id} />;
    case 'calendars':
      return <Calendars />;
    case 'calendar':
      return <CalendarDetail key={route.calendar} name={route.calendar} />;
    case 'health':
      return <Health />;
    default:
      return <NotFound />;
  }
}

export function App({ api: given }: { api?: Api }) {
  const keyRef = useRef<string | null>(storedKey());
  const [tenant, setTenant] = useState<Tenant | null>(null);
  const [checking, setChecking] = useState(keyRef.current !== null);
  const [message, setMessage] = useState<string | null>(null);

  // One cache per sign-in: another key never sees the previous tenant's data.
  const [queries, setQueries] = useState(createQueryClient);
  const signOut = useMemo(
    () =>
      (why?: string): void => {
        setQueries((old) => {
          old.clear();
          return createQueryClient();
        });
        keyRef.current = null;
        storeKey(null);
        setTenant(null);
        setMessage(why ?? null);
      },
    [],
  );

  const api = useMemo(
    () =>
      given ??
      createApi({
        key: () => keyRef.current,
        onUnauthorized: () => signOut('The API key is no longer accepted. Sign in again.'),
      }),
    [given, signOut],
  );

  useEffect(() => {
    if (keyRef.current === null) return;
    let live = true;
    api
      .tenant()
      .then(
        (t) => {
          if (live) setTenant(t);
        },
        (e) => {
          if (!live) return;
          signOut(describeError(e));
        },
      )
      .finally(() => live && setChecking(false));
    return () => {
      live = false;
    };
  }, [api, signOut]);

  const session: Session | null = useMemo(
    () => (tenant ? { api, tenant, signOut } : null),
    [api, tenant, signOut],
  );

  if (checking && tenant === null) {
    return (
      <p className="status" role="status" aria-live="polite">
        Signing in…
      </p>
    );
  }
  if (session === null) {
    return (
      <SignIn
        api={api}
        message={message}
        onSignedIn={(key, t) => {
          keyRef.current = key;
          storeKey(key);
          setMessage(null);
          setTenant(t);
        }}
      />
    );
  }
  return (
    <QueryClientProvider client={queries}>
      <SessionContext.Provider value={session}>
        <SafePage />
      </SessionContext.Provider>
    </QueryClientProvider>
  );
}
