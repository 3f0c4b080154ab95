// The accessibility statement (RGAA 4.1 model) and the personal-data page, the same text in the citizens' app and in
// the agents' console (docs/accessibility.md): each app draws its own title and gives the way to reach its people
// (`contact`). What the personal-data page says is what the code stores (src/db/types.ts, web/src/store.ts) and for
// as long as the code keeps it (REQUESTS_RETENTION_DAYS, CHAT_RETENTION_DAYS, the reminders' and the logins' clean-ups): change both together.
import type { ComponentChildren } from 'preact';

/** When the statement was written, and the checks it reports were last run on every screen listed. */
const STATEMENT_DATE = '29 novembre 2026';

/** The screens the two engines check in the browser tests (test/web/legal.test.ts, test/console-web/legal.test.ts). */
const CHECKED_SCREENS = [
  'l’accueil et le choix de la commune',
  'le calendrier des collectes d’un secteur',
  'le guide du tri (« Où jeter ? »)',
  'les déchèteries et points d’apport',
  'le formulaire de signalement et « Mes demandes »',
  'la présente déclaration et la page « Données personnelles »',
  'la connexion à la console, son accueil, l’éditeur d’un secteur et la file des demandes',
];

export function AccessibilityStatement({ contact }: { contact: ComponentChildren }) {
  return (
    <div class="legal prose">
      <p>
        Collecte s’engage à rendre ses services accessibles, conformément à l’article 47 de la loi n° 2005-102 du
        11 février 2005.
      </p>
      <p>
        Cette déclaration d’accessibilité s’applique à l’application des habitants (calendrier des collectes, guide du tri,
        déchèteries, signalements et demandes, défis, actualités, assistant) et à la console des agents.
      </p>

      <section aria-labelledby="conformity">
        <h2 id="conformity">État de conformité</h2>
        <p>
          Collecte est <strong>partiellement conforme</strong> avec le référentiel général d’amélioration de l’accessibilité
          (RGAA), version 4.1.
        </p>
        <p>
          Aucun audit complet des 106 critères du RGAA n’a encore été mené par une personne qualifiée : le taux de
          conformité n’est donc pas connu. Cet état repose sur les vérifications automatiques et les essais au clavier
          décrits ci-dessous, qui ne couvrent qu’une partie des critères.
        </p>
      </section>

      <section aria-labelledby="checks">
        <h2 id="checks">Vérifications réalisées</h2>
        <ul>
          <li>
            <strong>axe-core</strong> (Deque Systems) : aucune violation grave ou critique sur chaque écran que les tests
            automatiques parcourent.
          </li>
          <li>
            <strong>HTML_CodeSniffer</strong> (le moteur de pa11y), norme WCAG 2 niveau AA : aucune erreur sur les écrans
            principaux.
          </li>
          <li>Ces tests s’exécutent à chaque modification du logiciel, dans le navigateur Chromium, en largeur de téléphone et d’ordinateur.</li>
          <li>
            Navigation au clavier seul sur les parcours principaux (choisir sa commune, signaler un problème, traiter une
            demande dans la console), lien d’évitement vers le contenu, titre de page et focus sur le titre à chaque écran.
          </li>
        </ul>
        <p>Écrans vérifiés par les deux moteurs :</p>
        <ul>
          {CHECKED_SCREENS.map((screen) => (
            <li key={screen}>{screen} ;</li>
          ))}
        </ul>
        <p>Technologies utilisées : HTML5, CSS, JavaScript (Preact), WAI-ARIA.</p>
      </section>

      <section aria-labelledby="not-accessible">
        <h2 id="not-accessible">Contenus non accessibles</h2>
        <p>Ce que nous savons ne pas avoir vérifié, ou ne pas pouvoir garantir :</p>
        <ul>
          <li>
            les critères qu’un outil automatique ne peut pas juger (pertinence des textes de remplacement, des titres et des
            intitulés de liens, usage avec un lecteur d’écran, agrandissement du texte à 200 %) n’ont pas été audités ;
          </li>
          <li>
            les actualités, les pages et les images publiées par les collectivités : leur accessibilité (textes de
            remplacement, documents joints) dépend de leurs auteurs ;
          </li>
          <li>les photos jointes aux demandes n’ont pas d’autre description que le texte de la demande.</li>
        </ul>
      </section>

      <section aria-labelledby="statement-date">
        <h2 id="statement-date">Établissement de cette déclaration</h2>
        <p>Cette déclaration a été établie le {STATEMENT_DATE}.</p>
      </section>

      <section aria-labelledby="feedback">
        <h2 id="feedback">Retour d’information et contact</h2>
        <p>
          Si vous n’arrivez pas à accéder à un contenu ou à un service, signalez-le : nous vous orienterons vers une
          solution accessible ou vous donnerons le contenu sous une autre forme.
        </p>
        {contact}
      </section>

      <section aria-labelledby="remedies">
        <h2 id="remedies">Voies de recours</h2>
        <p>
          Si vous avez signalé un défaut d’accessibilité qui vous empêche d’accéder à un contenu ou à un service et que vous
          n’avez pas obtenu de réponse satisfaisante, vous pouvez :
        </p>
        <ul>
          <li>
            écrire un message au <a href="https://formulaire.defenseurdesdroits.fr/">Défenseur des droits</a> ;
          </li>
          <li>
            contacter <a href="https://www.defenseurdesdroits.fr/saisir/delegues">le délégué du Défenseur des droits dans votre région</a> ;
          </li>
          <li>
            envoyer un courrier par la poste (gratuit, ne pas mettre de timbre) : Défenseur des droits, Libre réponse 71120,
            75342 Paris CEDEX 07.
          </li>
        </ul>
      </section>
    </div>
  );
}

export function PersonalData({ contact }: { contact: ComponentChildren }) {
  return (
    <div class="legal prose">
      <p>
        Collecte n’enregistre que ce qu’il faut pour rendre le service que vous demandez. L’application des habitants ne
        dépose <strong>aucun cookie</strong>, ne contient <strong>aucun traceur</strong> ni mesure d’audience, et
        n’affiche <strong>aucune publicité</strong>. Le responsable du traitement est la collectivité qui propose ce
        service.
      </p>

      <section aria-labelledby="on-device">
        <h2 id="on-device">Sur votre appareil</h2>
        <p>
          L’application garde dans le stockage local de votre navigateur (localStorage), sans limite de durée, jusqu’à ce
          que vous effaciez les données du site :
        </p>
        <ul>
          <li>un identifiant d’appareil tiré au hasard, qui ne dit rien de vous ;</li>
          <li>la commune et le secteur choisis, les adresses que vous avez enregistrées (six au plus, sous le nom que vous leur donnez) et la dernière vue du calendrier ;</li>
          <li>vos résultats aux défis et l’identifiant de votre conversation avec l’assistant.</li>
        </ul>
      </section>

      <section aria-labelledby="on-server">
        <h2 id="on-server">Sur le serveur du service</h2>
        <h3>Rappels de collecte</h3>
        <p>
          Pour vous prévenir la veille des collectes : l’identifiant d’appareil, la commune, le secteur, les déchets et
          l’heure choisis, et l’adresse de notification de votre navigateur ou votre adresse e-mail. Conservés jusqu’à ce
          que vous vous désabonniez (dans l’application, ou par le lien de chaque e-mail). Une adresse e-mail non confirmée
          est effacée après 7 jours ; un abonnement que le service de notification déclare disparu est effacé aussitôt.
        </p>
        <h3>Signalements et demandes (dont les encombrants)</h3>
        <p>
          Pour traiter votre demande : son type, la commune, le secteur, la date, la position ou l’adresse, votre
          description, vos réponses aux questions du formulaire, votre adresse e-mail si vous la donnez (pour vous tenir
          informé) et vos photos, enregistrées sans leurs métadonnées (position GPS comprise). Une photo qui n’est jointe à
          aucune demande est effacée dans les 24 heures. Votre adresse IP n’est pas enregistrée avec la demande.
        </p>
        <p>
          365 jours après la clôture d’une demande (résolue, rejetée ou annulée), durée par défaut que le service peut
          régler, l’adresse e-mail, la description, les réponses, la position, l’adresse et les photos sont effacées ; le
          type, la commune, le secteur, les dates, l’état et la référence restent, pour les statistiques. Une demande peut
          aussi être effacée entièrement à votre demande.
        </p>
        <h3>Conversations avec l’assistant</h3>
        <p>
          Pour vous répondre et permettre à un agent de prendre le relais : l’identifiant d’appareil, la commune, le secteur
          et les messages échangés. Les conversations sont supprimées, avec leurs messages, 365 jours après le dernier
          message ou le dernier changement de leur état (leur clôture par un agent, par exemple), durée par défaut que le
          service peut régler ; vous pouvez aussi en demander l’effacement plus tôt au service. Les agents n’y voient qu’un
          pseudonyme de votre appareil. Les questions restées sans réponse sont comptées par jour et par commune, sans
          rien qui vous identifie, pour améliorer l’assistant.
        </p>
        <h3>Défis et recherches</h3>
        <p>
          Les scores des défis sont enregistrés avec l’identifiant d’appareil. Les recherches du guide du tri sont comptées
          par jour et par commune, sans rien qui vous identifie.
        </p>
        <h3>Journaux du serveur</h3>
        <p>
          Pour la sécurité et le bon fonctionnement : chaque requête reçue est journalisée avec l’adresse IP et l’adresse
          demandée, les identifiants d’appareil et les jetons qui y figurent étant masqués. Leur durée de conservation est
          celle de l’hébergement du service.
        </p>
      </section>

      <section aria-labelledby="cookies">
        <h2 id="cookies">Cookies</h2>
        <p>
          L’application des habitants n’en dépose aucun. La console des agents en dépose un seul, strictement nécessaire :
          le cookie de session de l’agent connecté, réservé à l’authentification, qui expire au plus tard 12 heures après
          la connexion (durée par défaut) ou à la déconnexion.
        </p>
      </section>

      <section aria-labelledby="third-parties">
        <h2 id="third-parties">Services extérieurs</h2>
        <ul>
          <li>Les notifications passent par le service de notification de votre navigateur (Google, Mozilla, Apple…).</li>
          <li>Là où la collectivité a activé une carte, le formulaire de signalement en charge les images depuis un serveur de cartes, qui voit votre adresse IP.</li>
          <li>Là où la collectivité a activé un modèle de langage, le texte de la conversation lui est transmis pour rédiger les réponses de l’assistant.</li>
        </ul>
        <p>Aucune donnée n’est vendue ni transmise à des fins publicitaires.</p>
      </section>

      <section aria-labelledby="agents">
        <h2 id="agents">Pour les agents</h2>
        <p>
          La console enregistre le compte de chaque agent (nom, adresse e-mail, permissions, dernière connexion), chaque
          modification qu’il fait (historique) et, pendant 15 minutes, les tentatives de connexion échouées avec leur adresse
          IP, pour bloquer les essais de mots de passe.
        </p>
      </section>

      <section aria-labelledby="rights">
        <h2 id="rights">Vos droits</h2>
        <p>
          Selon le règlement général sur la protection des données (RGPD), vous pouvez accéder à vos données, les faire
          rectifier ou effacer, et vous opposer à leur traitement ou en demander la limitation. Pour les données de votre
          appareil, effacez les données du site dans votre navigateur ; pour les rappels, désabonnez-vous ; pour le
          reste, adressez-vous au service :
        </p>
        {contact}
        <p>
          Si vous estimez que vos droits ne sont pas respectés, vous pouvez adresser une réclamation à la{' '}
          <a href="https://www.cnil.fr/fr/plaintes">Commission nationale de l’informatique et des libertés (CNIL)</a>.
        </p>
      </section>
    </div>
  );
}
