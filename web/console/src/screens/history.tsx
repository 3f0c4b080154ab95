// A record's history (GET /admin/audit?entity=&entityId=): who changed it, when, and each field before and after.
import { getAll } from '../api.ts';
import { frenchMoment, type AuditEntry } from '../chat-types.ts';
import type { ScreenProps } from '../screens.ts';
import { Loaded, Title, useResource } from '../ui.tsx';

const ACTIONS: Record<AuditEntry['action'], string> = { create: 'Création', update: 'Modification', delete: 'Suppression' };
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

const shown = (value: unknown): string =>
  value === undefined ? '—' : value === null ? 'vide' : typeof value === 'string' ? value : JSON.stringify(value);

/** The fields whose value differs between before and after (all of them for a creation or deletion). */
function changes(entry: AuditEntry): { field: string; before: unknown; after: unknown }[] {
  const before = entry.before ?? {};
  const after = entry.after ?? {};
  const fields = [...new Set([...Object.keys(before), ...Object.keys(after)])].filter((f) => f !== 'id');
  return fields
    .map((field) => ({ field, before: before[field], after: after[field] }))
    .filter((c) => JSON.stringify(c.before) !== JSON.stringify(c.after));
}

export default function History({ query }: ScreenProps) {
  const entity = query.get('entite') ?? '';
  const id = query.get('id') ?? '';
  const name = query.get('nom') ?? 'cet élément';
  const valid = /^[a-z][A-Za-z]{0,63}$/.test(entity) && UUID.test(id);
  const resource = useResource(valid ? `${entity}/${id}` : null, () =>
    getAll<AuditEntry>(`/admin/audit?entity=${encodeURIComponent(entity)}&entityId=${id}`),
  );
  return (
    <section>
      <Title text={`Historique de ${name}`}>Historique de «&nbsp;{name}&nbsp;»</Title>
      {!valid ? (
        <p class="problem" role="alert">
          Ce lien d’historique est incomplet&nbsp;: ouvrez l’historique depuis la liste de l’élément.
        </p>
      ) : (
        <Loaded resource={resource} what="de l’historique">
          {(entries) =>
            entries.length === 0 ? (
              <p class="muted">Aucune modification enregistrée.</p>
            ) : (
              <ol class="history">
                {entries.map((e) => {
                  const diff = changes(e);
                  return (
                    <li key={e.id} class="card">
                      <h2>
                        {ACTIONS[e.action]} par {e.userName}, le {frenchMoment(e.at)}
                      </h2>
                      {diff.length === 0 ? (
                        <p class="muted">Aucun champ modifié.</p>
                      ) : (
                        <div class="table-wrap">
                          <table class="diff">
                            <caption class="visually-hidden">Champs modifiés&nbsp;: {ACTIONS[e.action].toLowerCase()} du {frenchMoment(e.at)}</caption>
                            <thead>
                              <tr>
                                <th scope="col">Champ</th>
                                <th scope="col">Avant</th>
                                <th scope="col">Après</th>
                              </tr>
                            </thead>
                            <tbody>
                              {diff.map((c) => (
                                <tr key={c.field}>
                                  <th scope="row">{c.field}</th>
                                  <td class="before">{e.action === 'create' ? '—' : shown(c.before)}</td>
                                  <td class="after">{e.action === 'delete' ? '—' : shown(c.after)}</td>
                                </tr>
                              ))}
                            </tbody>
                          </table>
                        </div>
                      )}
                    </li>
                  );
                })}
              </ol>
            )
          }
        </Loaded>
      )}
    </section>
  );
}
