// The « Historique » link of a record in the collection-data screens' lists (screens/history.tsx).
import { Link } from '../../shared/router.tsx';

export function HistoryLink({ entity, id, name }: { entity: string; id: string; name: string }) {
  return (
    <Link class="link-button" href={`/console/historique?${new URLSearchParams({ entite: entity, id, nom: name })}`}>
      Historique<span class="visually-hidden"> {name}</span>
    </Link>
  );
}
