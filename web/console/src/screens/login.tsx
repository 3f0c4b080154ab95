// The login screen: part of the first load (an agent who is not logged in sees nothing else).
import { useState } from 'preact/hooks';
import { login, messageOf } from '../api.ts';
import { Title } from '../ui.tsx';

export function Login({ expired }: { expired: boolean }) {
  const [email, setEmail] = useState('');
  const [password, setPassword] = useState('');
  const [error, setError] = useState<unknown>(null);
  const [busy, setBusy] = useState(false);

  const submit = async (event: Event) => {
    event.preventDefault();
    setBusy(true);
    setError(null);
    try {
      await login(email.trim(), password);
    } catch (err) {
      setError(err);
      setBusy(false);
    }
  };

  return (
    <main id="main" class="login">
      <form class="card" onSubmit={submit} noValidate>
        <Title text="Connexion">Console Collecte</Title>
        <p class="muted">Connectez-vous avec le compte que votre administrateur vous a donné.</p>
        {expired && (
          <p class="notice" role="status">
            Votre session a pris fin. Reconnectez-vous&nbsp;: le formulaire que vous remplissiez a été conservé.
          </p>
        )}
        <div class="field">
          <label for="login-email">Adresse e-mail</label>
          <input id="login-email" type="email" autocomplete="username" required value={email} onInput={(e) => setEmail(e.currentTarget.value)} />
        </div>
        <div class="field">
          <label for="login-password">Mot de passe</label>
          <input
            id="login-password"
            type="password"
            autocomplete="current-password"
            required
            value={password}
            onInput={(e) => setPassword(e.currentTarget.value)}
          />
        </div>
        {error !== null && (
          <p class="problem" role="alert">
            {messageOf(error)}
          </p>
        )}
        <button type="submit" class="button" disabled={busy || !email || !password}>
          {busy ? 'Connexion…' : 'Se connecter'}
        </button>
      </form>
    </main>
  );
}
