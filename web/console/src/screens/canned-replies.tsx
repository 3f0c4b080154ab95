// The canned replies of the agent's groups (/admin/city-groups/:id/canned-replies): add, read and delete them; the
// conversation screen offers them when answering.
import { useState } from 'preact/hooks';
import { currentUser, get, getAll, post, request, type Page } from '../api.ts';
import type { CannedReply } from '../chat-types.ts';
import type { ScreenProps } from '../screens.ts';
import type { CityGroup } from '../types.ts';
import { Loaded, Problem, SelectField, Status, Table, TextArea, TextField, Title, useResource } from '../ui.tsx';

async function load(): Promise<{ groups: Pick<CityGroup, 'id' | 'name'>[]; replies: CannedReply[] }> {
  const user = currentUser()!;
  // Groups by name where the agent may read them (CITIES, super admin); else their ids alone.
  const named = await get<Page<CityGroup>>('/admin/city-groups?pageSize=100').then((p) => p.data).catch(() => null);
  const groups = named ?? user.cityGroupIds.map((id, i) => ({ id, name: `Collectivité ${i + 1}` }));
  const replies = (await Promise.all(groups.map((g) => getAll<CannedReply>(`/admin/city-groups/${g.id}/canned-replies`)))).flat();
  return { groups, replies };
}

export default function CannedReplies(_props: ScreenProps) {
  const resource = useResource('canned', load);
  const [groupId, setGroupId] = useState('');
  const [title, setTitle] = useState('');
  const [content, setContent] = useState('');
  const [error, setError] = useState<unknown>(null);
  const [status, setStatus] = useState<string | null>(null);
  return (
    <section>
      <Title text="Réponses types">Réponses types</Title>
      <p class="muted">Des réponses prêtes que les agents de la collectivité choisissent en répondant à un citoyen.</p>
      <Loaded resource={resource} what="des réponses types">
        {({ groups, replies }) => {
          const group = groups.find((g) => g.id === groupId)?.id ?? groups[0]?.id;
          const name = (id: string) => groups.find((g) => g.id === id)?.name ?? '';
          return (
            <>
              {error ? <Problem error={error} /> : null}
              {status && <Status>{status}</Status>}
              <Table
                caption="Réponses types"
                rows={replies}
                rowKey={(r) => r.id}
                empty="Aucune réponse type pour l’instant."
                columns={[
                  { label: 'Titre', cell: (r) => r.title },
                  { label: 'Réponse', cell: (r) => r.content },
                  ...(groups.length > 1 ? [{ label: 'Collectivité', cell: (r: CannedReply) => name(r.cityGroupId) }] : []),
                  {
                    label: 'Actions',
                    cell: (r) => (
                      <button
                        type="button"
                        class="link-button danger"
                        onClick={async () => {
                          if (!confirm(`Supprimer la réponse type « ${r.title} » ?`)) return;
                          try {
                            const { etag } = await request('GET', `/admin/canned-replies/${r.id}`);
                            await request('DELETE', `/admin/canned-replies/${r.id}`, { ifMatch: etag });
                            setStatus(`Réponse type « ${r.title} » supprimée.`);
                            resource.reload();
                          } catch (err) {
                            setError(err);
                          }
                        }}
                      >
                        Supprimer<span class="visually-hidden"> {r.title}</span>
                      </button>
                    ),
                  },
                ]}
              />
              <form
                class="card"
                aria-labelledby="canned-form-title"
                onSubmit={async (e) => {
                  e.preventDefault();
                  setError(null);
                  try {
                    await post(`/admin/city-groups/${group}/canned-replies`, { title, content });
                    setStatus(`Réponse type « ${title.trim()} » ajoutée.`);
                    setTitle('');
                    setContent('');
                    resource.reload();
                  } catch (err) {
                    setError(err);
                  }
                }}
              >
                <h2 id="canned-form-title">Nouvelle réponse type</h2>
                {groups.length > 1 && <SelectField label="Collectivité" value={group ?? ''} options={groups.map((g) => ({ value: g.id, label: g.name }))} onChange={setGroupId} />}
                <TextField label="Titre" value={title} onInput={setTitle} maxLength={100} required />
                <TextArea label="Réponse" value={content} onInput={setContent} rows={4} />
                <button type="submit" class="button" disabled={!group || !title.trim() || !content.trim()}>
                  Ajouter
                </button>
              </form>
            </>
          );
        }}
      </Loaded>
    </section>
  );
}
