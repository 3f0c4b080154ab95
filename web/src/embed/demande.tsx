// The « demande » widget (docs/widgets.md): « Signaler un problème » for the commune (its types, then a type's form,
// bookings of bulky waste included) and the frame's own « Mes demandes » (the device is the frame's: the resident
// follows there what they filed there, and by e-mail).
import { match } from '../../shared/router.tsx';
import { lazy } from '../lazy.tsx';
import { Report } from '../screens/report.tsx';
import { startEmbed } from './shell.tsx';

const MyRequests = lazy(() => import('../screens/my-requests.tsx').then((m) => m.MyRequests));
const MyRequest = lazy(() => import('../screens/my-requests.tsx').then((m) => m.MyRequest));

function RequestWidget({ path }: { path: string }) {
  if (path === '/embed/demande/mes-demandes') return <MyRequests />;
  const one = match('/embed/demande/mes-demandes/:requestId', path);
  if (one) return <MyRequest key={one.requestId} requestId={one.requestId} />;
  return <Report />;
}

startEmbed(RequestWidget, (url) => {
  if (url.pathname === '/signaler') return `/embed/demande${url.search}`;
  if (url.pathname === '/mes-demandes' || url.pathname.startsWith('/mes-demandes/')) return `/embed/demande${url.pathname}${url.search}`;
  return null;
});
