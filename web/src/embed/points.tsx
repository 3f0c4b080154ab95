// The « points » widget (docs/widgets.md): the commune's recycling points, open now and nearest first, as the app's
// « Déchèteries » screen.
import { RecyclingPoints } from '../screens/points.tsx';
import { startEmbed } from './shell.tsx';

startEmbed(() => <RecyclingPoints />, (url) => (url.pathname === '/decheteries' ? `/embed/points${url.search}` : null));
