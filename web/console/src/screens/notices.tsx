// « Avis aux habitants »: a city group's service notices (docs/api.md, service notices), in force, to come and over,
// each with whom it concerns, its period in its communes' time and whether it went to the reminder subscribers; a
// form to write or change one (notice-form.tsx, in the address as `?edit=`), deletion with the notice's ETag.
import { useState } from 'preact/hooks';
import { get, getAll } from '../api.ts';
import { removeRecord, useEditing } from '../editor.tsx';
import { quoted } from '../french.ts';
import type { ScreenProps } from '../screens.ts';
import { Table } from '../table.tsx';
import type { AdminNotice, City, CityGroup, Place } from '../types.ts';
import { Breadcrumbs, Loaded, Notices, Title, useResource } from '../ui.tsx';
import { NoticeEditor, severityLabel } from './notice-form.tsx';
import { noticeState, noticeZone, periodText, scopeText, sendingText, STATE_LABELS, type GroupPlaces, type NoticeState } from './notice-text.ts';
import './notices.css';

/** The `edit` value of a notice still to write. */
const NEW = 'nouveau';

/** Current notices first, then those to come, then those over; the API's order (newest start first) within each. */
const STATE_ORDER: NoticeState[] = ['current', 'upcoming', 'ended'];

/** The group, its communes and their secteurs: what a notice may concern. */
async function loadGroup(groupId: string): Promise<{ group: CityGroup } & GroupPlaces> {
  const [group, cities] = await Promise.all([get<CityGroup>(`/admin/city-groups/${groupId}`), getAll<City>(`/admin/city-groups/${groupId}/cities`)]);
  const perCity = await Promise.all(cities.map(async (city) => ({ city, places: await getAll<Place>(`/admin/cities/${city.id}/places`) })));
  const places = new Map(perCity.flatMap(({ city, places }) => places.map((p) => [p.id, { name: p.name, cityId: city.id }] as const)));
  return { group, cities, places };
}

/** The first words of a notice's text, for the list. */
const excerpt = (text: string) => (text.length > 140 ? `${text.slice(0, 140).replace(/\s+\S*$/, '')}…` : text);

export default function NoticesScreen({ params, query }: ScreenProps) {
  const { cityGroupId } = params;
  const data = useResource(`notices-group:${cityGroupId}`, () => loadGroup(cityGroupId));
  const notices = useResource(`notices:${cityGroupId}`, () => getAll<AdminNotice>(`/admin/notices?cityGroupId=${cityGroupId}`));
  const { editing, status, setStatus, open, done } = useEditing(query, notices.reload);
  const [problem, setProblem] = useState<unknown>(null);

  const remove = async (n: AdminNotice) => {
    if (!confirm(`Supprimer l’avis ${quoted(n.title)}\u202f?`)) return;
    setStatus(null);
    setProblem(null);
    try {
      await removeRecord(`/admin/notices/${n.id}`);
      const said = `Avis ${quoted(n.title)} supprimé.`;
      if (editing === n.id) done(said);
      else {
        setStatus(said);
        notices.reload();
      }
    } catch (err) {
      setProblem(err);
    }
  };

  return (
    <Loaded resource={data} what="de la collectivité">
      {(d) => (
        <section>
          <Breadcrumbs items={[{ href: '/console/communes', label: 'Communes' }]} />
          <Title text={`Avis aux habitants – ${d.group.name}`}>Avis aux habitants – {d.group.name}</Title>
          <p class="muted">
            Ce que les habitants de {d.group.name} doivent savoir pour un temps&nbsp;: une grève, une rue fermée, une tournée qui change. Un avis en cours
            s’affiche dans l’application des habitants des communes et des secteurs qu’il concerne.
          </p>
          <Notices status={status} problem={problem} />
          {editing ? (
            <NoticeEditor
              key={editing}
              group={d}
              groupId={cityGroupId}
              id={editing === NEW ? null : editing}
              notifiedAt={notices.data?.find((n) => n.id === editing)?.notifiedAt ?? null}
              onDone={(saved, created) => {
                setProblem(null);
                done(saved ? `Avis ${quoted(saved.title)} ${created ? 'créé' : 'enregistré'}.` : null);
              }}
            />
          ) : (
            <p>
              <button type="button" class="button" onClick={() => (setProblem(null), open(NEW))}>
                Écrire un avis
              </button>
            </p>
          )}
          <h2>Avis de la collectivité</h2>
          <Loaded resource={notices} what="des avis">
            {(list) => (
              <div class="notices-list">
                <Table
                  caption={`Avis aux habitants de ${d.group.name}`}
                  rows={[...list].sort((a, b) => STATE_ORDER.indexOf(noticeState(a)) - STATE_ORDER.indexOf(noticeState(b)))}
                  rowKey={(n) => n.id}
                  empty="Aucun avis pour l’instant."
                  columns={[
                    {
                      label: 'Avis',
                      cell: (n) => (
                        <>
                          <strong>{n.title}</strong>
                          {n.severity === 'WARNING' && <span class="tag warning">{severityLabel(n.severity)}</span>}
                          <span class="excerpt">{excerpt(n.body)}</span>
                        </>
                      ),
                    },
                    { label: 'Concerne', cell: (n) => scopeText(d, n) },
                    { label: 'Période', cell: (n) => periodText(n, noticeZone(d, n)) },
                    {
                      label: 'État',
                      cell: (n) => {
                        const state = noticeState(n);
                        const sent = sendingText(n, noticeZone(d, n));
                        return (
                          <>
                            <span class={`state ${state}`}>{STATE_LABELS[state]}</span>
                            {sent && <span class="sent">{sent}</span>}
                          </>
                        );
                      },
                    },
                    {
                      label: 'Actions',
                      class: 'actions-cell',
                      cell: (n) => (
                        <>
                          <button type="button" class="link-button" onClick={() => (setProblem(null), open(n.id))}>
                            Modifier<span class="visually-hidden"> l’avis {n.title}</span>
                          </button>
                          <button type="button" class="link-button danger" onClick={() => void remove(n)}>
                            Supprimer<span class="visually-hidden"> l’avis {n.title}</span>
                          </button>
                        </>
                      ),
                    },
                  ]}
                />
              </div>
            )}
          </Loaded>
        </section>
      )}
    </Loaded>
  );
}
