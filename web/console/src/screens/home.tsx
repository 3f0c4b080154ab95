// The console's home: who is logged in, and the screens their permissions open.
import { currentUser } from '../api.ts';
import { mayOpen, screens } from '../screens.ts';
import { Title } from '../ui.tsx';
import { Link } from '../../../shared/router.tsx';

const PERMISSION_NAMES: Record<string, string> = {
  CITIES: 'données de collecte',
  CHALLENGES: 'défis',
  BLOG_POSTS: 'actualités',
  CMS: 'sites, pages et médias',
  CHAT_CONVERSATIONS: 'conversations',
  USERS: 'comptes',
  REQUESTS: 'demandes des habitants',
};

export default function Home() {
  const user = currentUser()!;
  const entries = screens.filter((s) => s.nav && s.path !== '/console' && mayOpen(user, s));
  const rights = user.superAdmin ? 'administrateur de toutes les collectivités' : user.permissions.map((p) => PERMISSION_NAMES[p] ?? p).join(', ');
  return (
    <section>
      <Title text="Accueil">Bonjour {user.name}</Title>
      <p class="muted">Vos droits&nbsp;: {rights || 'aucun pour l’instant'}.</p>
      {entries.length === 0 ? (
        <p>Aucun écran ne vous est ouvert. Demandez une permission à un administrateur de votre collectivité.</p>
      ) : (
        <ul class="tiles">
          {entries.map((s) => (
            <li key={s.path}>
              <Link href={s.path}>{s.nav}</Link>
            </li>
          ))}
        </ul>
      )}
    </section>
  );
}
