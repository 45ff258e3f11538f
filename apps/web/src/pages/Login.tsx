import { useState, type FormEvent } from 'react';
import { useAuth } from '../auth';
import { ErrorMessage, Page } from '../ui';

export function Login() {
  const { login, config } = useAuth();
  const [email, setEmail] = useState('');
  const [password, setPassword] = useState('');
  const [error, setError] = useState<unknown>();
  const [busy, setBusy] = useState(false);

  async function submit(e: FormEvent) {
    e.preventDefault();
    setBusy(true);
    setError(undefined);
    try {
      await login(email, password);
    } catch (err) {
      setError(err);
    } finally {
      setBusy(false);
    }
  }

  return (
    <Page title="Log in">
      <form onSubmit={(e) => void submit(e)} className="card narrow">
        {config.standalone && (
          <p data-testid="console-sign-in">
            The researchers&apos; console: sign in as <code>console</code> with the token in <code>run/console/token</code>.
          </p>
        )}
        <label htmlFor="email">{config.standalone ? 'Name' : 'Email'}</label>
        <input id="email" type={config.standalone ? 'text' : 'email'} autoComplete="username" required value={email} onChange={(e) => setEmail(e.target.value)} />
        <label htmlFor="password">{config.standalone ? 'Token' : 'Password'}</label>
        <input id="password" type="password" autoComplete="current-password" required value={password} onChange={(e) => setPassword(e.target.value)} />
        <button type="submit" disabled={busy}>
          {busy ? 'Logging in…' : 'Log in'}
        </button>
        <ErrorMessage error={error} />
      </form>
    </Page>
  );
}
