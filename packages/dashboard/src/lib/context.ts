// The session every page reads: the API client, the signed-in tenant, and how to sign out. Provided once by
// the App; tests provide a fake client the same way.

import { createContext, useContext } from 'react';
import type { Api, Tenant } from '../api.ts';

export interface Session {
  api: Api;
  tenant: Tenant;
  signOut: (message?: string) => void;
}

export const SessionContext = createContext<Session | null>(null);

export function useSession(): Session {
  const s = useContext(SessionContext);
  if (s === null) throw new Error('useSession outside a SessionContext provider');
  return s;
}
