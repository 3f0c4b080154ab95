import { isUuid } from '../kernel/schemas.ts';

/**
 * The web app's own client routes, as its router matches them (web/src/main.tsx, `Screen`); each `:param` names a
 * record by its id, a UUID. Only these paths get the app's page with 200; any other path is a 404
 * (test/web/routes.test.ts checks that this list and the router's agree).
 */
export const CLIENT_ROUTES = [
  '/',
  '/communes',
  '/communes/:cityId',
  '/communes/:cityId/:placeId',
  '/tri',
  '/decheteries',
  '/defis',
  '/defis/:challengeId/:serieId',
  '/actualites',
  '/actualites/:postId',
  '/assistant',
  '/donnees-ouvertes',
  '/pages/:pageId',
  '/signaler',
  '/mes-demandes',
  '/mes-demandes/:requestId',
  '/accessibilite',
  '/donnees-personnelles',
];

/**
 * The agents' console's client routes, as its screen registry lists them (web/console/src/screens.ts; checked by
 * test/console-web/routes.test.ts). Everything under /console is the console's: a path not listed is its 404.
 */
export const CONSOLE_ROUTES = [
  '/console',
  '/console/communes',
  '/console/communes/:cityId',
  '/console/communes/:cityId/types-de-dechets',
  '/console/communes/:cityId/secteurs',
  '/console/secteurs/:placeId',
  '/console/communes/:cityId/points-d-apport',
  '/console/collectivites/:cityGroupId/jours-feries',
  '/console/collectivites/:cityGroupId/avis',
  '/console/collectivites/:cityGroupId/widgets',
  '/console/conversations',
  '/console/conversations/:conversationId',
  '/console/questions-frequentes',
  '/console/reponses-types',
  '/console/consommation',
  '/console/historique',
  '/console/analyses',
  '/console/demandes',
  '/console/demandes/:requestId',
  '/console/collectivites/:cityGroupId/types-de-demandes',
  '/console/communes/:cityId/quiz',
  '/console/actualites',
  '/console/actualites/nouvel-article',
  '/console/actualites/:postId',
  '/console/sites',
  '/console/sites/:siteId',
  '/console/sites/:siteId/nouvelle-page',
  '/console/pages/:pageId',
  '/console/menus/:menuId',
  '/console/medias',
  '/console/comptes',
  '/console/defis',
  '/console/communes/:cityId/encombrants',
  '/console/open311',
  '/console/accessibilite',
  '/console/donnees-personnelles',
];

/** The console's own part of the URL space. */
export const isConsolePath = (pathname: string): boolean => pathname === '/console' || pathname.startsWith('/console/');

/** Each route as its list of segments, null standing for a parameter. */
const segmentsOf = (routes: string[]) => routes.map((route) => route.split('/').filter(Boolean).map((part) => (part.startsWith(':') ? null : part)));
const ROUTE_SEGMENTS = segmentsOf(CLIENT_ROUTES);
const CONSOLE_SEGMENTS = segmentsOf(CONSOLE_ROUTES);

function matchesOne(routes: (string | null)[][], pathname: string): boolean {
  const trimmed = pathname.replace(/\/+$/, '');
  if (trimmed !== '' && !trimmed.startsWith('/')) return false;
  // An empty segment inside the path (`/communes//x`) matches no segment of a route.
  const segments = trimmed === '' ? [] : trimmed.slice(1).split('/');
  return routes.some(
    (route) => route.length === segments.length && route.every((part, i) => (part === null ? isUuid(segments[i]) : part === segments[i])),
  );
}

/** Whether a path (no query string) is one of the web app's client routes; trailing slashes are ignored, as the router does. */
export const isClientRoute = (pathname: string): boolean => matchesOne(ROUTE_SEGMENTS, pathname);

/** Whether a path (no query string) is one of the console's client routes; trailing slashes are ignored. */
export const isConsoleRoute = (pathname: string): boolean => matchesOne(CONSOLE_SEGMENTS, pathname);
