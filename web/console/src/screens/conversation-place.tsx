// The next collections of a conversation's place, read-only beside its messages: the `place` of
// GET /chat/conversations/:id, computed by the server's calendar engine (the citizens' calendar gives the same dates).
import type { ConversationDetail } from '../chat-types.ts';
import { frenchDate } from '../french.ts';

type ConversationPlace = NonNullable<ConversationDetail['place']>;
type PlaceCollection = ConversationPlace['nextCollections'][number]['collections'][number];

/** `mardi 1er décembre`; the year only when it is not this one (`vendredi 1er janvier 2027` in December). */
function day(date: string): string {
  return frenchDate(date, { year: date.slice(0, 4) !== String(new Date().getFullYear()) });
}

/** A collection as the agent reads it to the citizen: its day, and what moved, added or cancelled it. */
export function collectionText(c: PlaceCollection): string {
  const why = c.note ? `\u00a0: ${c.note}` : '';
  switch (c.status) {
    case 'MOVED':
      return `${day(c.date)} (déplacée${c.originalDate ? ` du ${day(c.originalDate)}` : ''}${why})`;
    case 'ADDED':
      return `${day(c.date)} (collecte ajoutée${why})`;
    case 'CANCELLED':
      return `${day(c.date)} (annulée${why})`;
    default:
      return day(c.date);
  }
}

export function PlaceCollections({ place }: { place: ConversationPlace }) {
  return (
    <section class="card" aria-labelledby="collections-title">
      <h2 id="collections-title">Prochaines collectes</h2>
      {place.nextCollections.length === 0 ? (
        <p class="muted">Aucune collecte prévue dans l’année à venir pour ce secteur.</p>
      ) : (
        <ul class="place-collections">
          {place.nextCollections.map((type) => (
            <li key={type.wasteTypeId}>
              <strong>{type.wasteTypeName}</strong>
              <ul aria-label={`Prochaines collectes, ${type.wasteTypeName}`}>
                {type.collections.map((c) => (
                  <li key={`${c.date}-${c.status}`} class={c.status === 'CANCELLED' ? 'cancelled' : undefined}>
                    {collectionText(c)}
                  </li>
                ))}
              </ul>
            </li>
          ))}
        </ul>
      )}
    </section>
  );
}
