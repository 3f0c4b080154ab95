// The « calendrier » widget (docs/widgets.md): the commune's places found from an address or chosen, then a place's
// calendar as the app draws it for a widget. The place is in the frame's query (`place`), set by `data-place` or by
// the resident's choice.
import { match, useFromLocation } from '../../shared/router.tsx';
import { Calendar } from '../screens/calendar.tsx';
import { PlaceChoice } from '../screens/communes.tsx';
import { startEmbed } from './shell.tsx';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

function CalendarWidget({ cityId }: { cityId: string }) {
  const placeId = useFromLocation(() => new URLSearchParams(location.search).get('place')?.toLowerCase() ?? null);
  if (placeId && UUID.test(placeId)) return <Calendar key={placeId} cityId={cityId} placeId={placeId} inWidget />;
  return <PlaceChoice cityId={cityId} inWidget />;
}

startEmbed(CalendarWidget, (url) => {
  // The commune's places and a place's calendar stay in the frame; the rest opens in the app.
  const place = match('/communes/:cityId/:placeId', url.pathname);
  if (place) return `/embed/calendrier?place=${place.placeId}`;
  if (match('/communes/:cityId', url.pathname)) return '/embed/calendrier';
  return null;
});
