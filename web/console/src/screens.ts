// Every screen of the console: its path, who may see it, and the module that draws it (loaded on first use).
//
// To add a screen: write web/console/src/screens/NAME.tsx with a default export taking ScreenProps, add one entry
// here, and add its path to CONSOLE_ROUTES in src/web/paths.ts (test/console-web/routes.test.ts checks they agree).
// An entry with `nav` shows in the navigation, under its `section`, to the agents holding its permission (to super
// admins alone when it is `superAdminOnly`).
import type { FunctionComponent } from 'preact';
import { holds, type Permission, type User } from './api.ts';

export interface ScreenProps {
  /** The path's parameters (`:cityId` …), each a lower-case UUID. */
  params: Record<string, string>;
  /** The query string (`?edit=…` opens a form). */
  query: URLSearchParams;
}

export interface ScreenEntry {
  /** `/console/…`, each `:param` a UUID. */
  path: string;
  /** The navigation's label; absent: reached through other screens only. */
  nav?: string;
  /** The navigation's heading this entry goes under. */
  section?: 'Collecte' | 'Contenus' | 'Conversations' | 'Suivi' | 'Administration';
  /** The permission the screen's API needs; null: every agent. */
  permission: Permission | null;
  /** The screen's API answers super admins alone (the Open311 keys): nobody else sees or opens it. */
  superAdminOnly?: true;
  /** Opens without logging in too (the accessibility statement, the personal-data page: web/console/src/legal.tsx). */
  public?: true;
  load: () => Promise<{ default: FunctionComponent<ScreenProps> }>;
}

export const screens: ScreenEntry[] = [
  { path: '/console', nav: 'Accueil', permission: null, load: () => import('./screens/home.tsx') },
  { path: '/console/communes', nav: 'Communes', section: 'Collecte', permission: 'CITIES', load: () => import('./screens/cities.tsx') },
  { path: '/console/communes/:cityId', permission: 'CITIES', load: () => import('./screens/city.tsx') },
  { path: '/console/communes/:cityId/types-de-dechets', permission: 'CITIES', load: () => import('./screens/waste-types.tsx') },
  { path: '/console/communes/:cityId/secteurs', permission: 'CITIES', load: () => import('./screens/places.tsx') },
  { path: '/console/secteurs/:placeId', permission: 'CITIES', load: () => import('./screens/place.tsx') },
  { path: '/console/communes/:cityId/points-d-apport', permission: 'CITIES', load: () => import('./screens/recycling-points.tsx') },
  { path: '/console/collectivites/:cityGroupId/jours-feries', permission: 'CITIES', load: () => import('./screens/holidays.tsx') },
  { path: '/console/collectivites/:cityGroupId/avis', permission: 'CITIES', load: () => import('./screens/notices.tsx') },
  { path: '/console/collectivites/:cityGroupId/widgets', permission: 'CITIES', load: () => import('./screens/widgets.tsx') },
  { path: '/console/defis', nav: 'Défis', section: 'Collecte', permission: 'CHALLENGES', load: () => import('./screens/challenges.tsx') },
  { path: '/console/conversations', nav: 'Boîte de réception', section: 'Conversations', permission: 'CHAT_CONVERSATIONS', load: () => import('./screens/inbox.tsx') },
  { path: '/console/conversations/:conversationId', permission: 'CHAT_CONVERSATIONS', load: () => import('./screens/conversation.tsx') },
  { path: '/console/reponses-types', nav: 'Réponses types', section: 'Conversations', permission: 'CHAT_CONVERSATIONS', load: () => import('./screens/canned-replies.tsx') },
  { path: '/console/consommation', nav: 'Consommation de l’assistant', section: 'Conversations', permission: 'CHAT_CONVERSATIONS', load: () => import('./screens/usage.tsx') },
  { path: '/console/historique', permission: 'CITIES', load: () => import('./screens/history.tsx') },
  { path: '/console/demandes', nav: 'Demandes', section: 'Suivi', permission: 'REQUESTS', load: () => import('./screens/requests.tsx') },
  { path: '/console/demandes/:requestId', permission: 'REQUESTS', load: () => import('./screens/request.tsx') },
  { path: '/console/collectivites/:cityGroupId/types-de-demandes', permission: 'REQUESTS', load: () => import('./screens/request-types.tsx') },
  { path: '/console/analyses', nav: 'Analyses', section: 'Suivi', permission: 'CITIES', load: () => import('./screens/analytics.tsx') },
  { path: '/console/communes/:cityId/quiz', permission: 'CITIES', load: () => import('./screens/quiz.tsx') },
  { path: '/console/actualites', nav: 'Actualités', section: 'Contenus', permission: 'BLOG_POSTS', load: () => import('./screens/blog-posts.tsx') },
  { path: '/console/actualites/nouvel-article', permission: 'BLOG_POSTS', load: () => import('./screens/blog-post.tsx') },
  { path: '/console/actualites/:postId', permission: 'BLOG_POSTS', load: () => import('./screens/blog-post.tsx') },
  { path: '/console/sites', nav: 'Sites et pages', section: 'Contenus', permission: 'CMS', load: () => import('./screens/sites.tsx') },
  { path: '/console/sites/:siteId', permission: 'CMS', load: () => import('./screens/site.tsx') },
  { path: '/console/sites/:siteId/nouvelle-page', permission: 'CMS', load: () => import('./screens/cms-page.tsx') },
  { path: '/console/pages/:pageId', permission: 'CMS', load: () => import('./screens/cms-page.tsx') },
  { path: '/console/menus/:menuId', permission: 'CMS', load: () => import('./screens/menu.tsx') },
  { path: '/console/comptes', nav: 'Comptes des agents', section: 'Administration', permission: 'USERS', load: () => import('./screens/accounts.tsx') },
  { path: '/console/medias', nav: 'Médiathèque', section: 'Contenus', permission: 'CMS', load: () => import('./screens/media.tsx') },
  { path: '/console/questions-frequentes', nav: 'Questions fréquentes', section: 'Contenus', permission: 'CMS', load: () => import('./screens/faq.tsx') },
  { path: '/console/communes/:cityId/encombrants', permission: 'REQUESTS', load: () => import('./screens/bulky-pickups.tsx') },
  { path: '/console/accessibilite', permission: null, public: true, load: () => import('./screens/accessibility.tsx') },
  { path: '/console/donnees-personnelles', permission: null, public: true, load: () => import('./screens/personal-data.tsx') },
  { path: '/console/open311', nav: 'Clés Open311', section: 'Administration', permission: null, superAdminOnly: true, load: () => import('./screens/open311-keys.tsx') },
];

/** Whether the agent may open a screen (and see it in the navigation): its permission, and a super admin's screens. */
export const mayOpen = (user: User | null, entry: ScreenEntry): boolean => holds(user, entry.permission) && (!entry.superAdminOnly || user?.superAdmin === true);
