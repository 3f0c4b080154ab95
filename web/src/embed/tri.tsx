// The « tri » widget (docs/widgets.md): the commune's sorting guide, as the app's « Où jeter ? » screen.
import { WhereDoesItGo } from '../screens/sorting.tsx';
import { startEmbed } from './shell.tsx';

startEmbed(() => <WhereDoesItGo />, (url) => (url.pathname === '/tri' ? `/embed/tri${url.search}` : null));
