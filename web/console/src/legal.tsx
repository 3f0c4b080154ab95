// The console's footer, on every screen and on the login screen: the accessibility statement and the personal-data
// page (web/shared/legal.tsx), which an agent may read without logging in.
import { Link } from '../../shared/router.tsx';
import './legal.css';

/** The console's screens open to everyone, logged in or not (web/console/src/screens.ts marks them `public`). */
export const LEGAL_PATHS = ['/console/accessibilite', '/console/donnees-personnelles'];

export function ConsoleFooter() {
  return (
    <footer class="console-footer">
      <p>
        Console Collecte · <Link href="/console/accessibilite">Accessibilité : partiellement conforme</Link> ·{' '}
        <Link href="/console/donnees-personnelles">Données personnelles</Link>
      </p>
    </footer>
  );
}

/** How an agent reports a problem of accessibility or asks about their data. */
export function AgentContact() {
  return (
    <p>
      Adressez-vous à l’administrateur de la console dans votre collectivité ; un habitant s’adresse au service déchets
      de sa collectivité, dont les coordonnées figurent dans l’application des habitants.
    </p>
  );
}
