// Sign-in with an API key: the key is checked against GET /v1/tenant and then kept in sessionStorage for
// this browser session only.
import { useState, type FormEvent } from 'react';
import type { Api, Tenant } from '../api.ts';
import { Field } from '../components/Field.tsx';
import { describeError } from '../lib/errors.ts';

export interface SignInProps {
  api: Api;
  onSignedIn: (key: string, tenant: Tenant) => void;
  message?: string | null;
}

export function SignIn({ api, onSignedIn, message }: SignInProps) {
  const [key, setKey] = useState('');
  const [error, setError] = useState<string | undefined>(undefined);
  const [busy, setBusy] = useState(false);
  const submit = async (e: FormEvent): Promise<void> => {
    e.preventDefault();
    const k = key.trim();
    if (k === '') {
      setError('Enter the API key (it starts with pk_).');
      return;
    }
    setBusy(true);
    setError(undefined);
    try {
      const tenant = await api.tenant(k);
      onSignedIn(k, tenant);
    } catch (err) {
      setError(describeError(err));
    } finally {
      setBusy(false);
    }
  };
  return (
    <main id="main" className="signin">
      <h1>Punctual</h1>
      <form onSubmit={submit} noValidate aria-describedby="signin-about">
        <h2>Sign in</h2>
        <p id="signin-about" className="muted">
          Use an API key of your tenant. It is kept in this browser tab&apos;s session only and sent to this
          service alone.
        </p>
        {message && (
          <p className="note" role="status">
            {message}
          </p>
        )}
        <Field id="api-key" label="API key" error={error}>
          <input
            type="password"
            autoComplete="off"
            spellCheck={false}
            value={key}
            onChange={(e) => setKey(e.target.value)}
            placeholder="pk_…"
            autoFocus
          />
        </Field>
        <button type="submit" className="primary" disabled={busy}>
          {busy ? 'Checking…' : 'Sign in'}
        </button>
      </form>
    </main>
  );
}
