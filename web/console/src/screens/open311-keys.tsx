// « Clés Open311 »: the API keys of the city groups' Open311 partners (docs/api.md, Open311), a super admin's
// alone (screens.ts, superAdminOnly). Listed with their group and last use; created for a group, the key then shown
// once, to be copied (only its hash is stored); revoked after a confirmation (DELETE with the key's ETag).
import { useEffect, useRef, useState } from 'preact/hooks';
import { get, getAll, request, type Page } from '../api.ts';
import { removeRecord } from '../editor.tsx';
import { fieldError, refusedField } from '../editor-form.tsx';
import { SelectField, TextField } from '../form-fields.tsx';
import { quoted } from '../french.ts';
import type { ScreenProps } from '../screens.ts';
import { Table } from '../table.tsx';
import type { CityGroup, CreatedOpen311Key, Open311Key } from '../types.ts';
import { Loaded, Notices, Problem, Status, Title, useResource } from '../ui.tsx';
import { frenchInstant } from '../requests/request-text.ts';
import './open311-keys.css';

type Group = Pick<CityGroup, 'id' | 'name'>;

async function loadKeys(): Promise<{ groups: Group[]; keys: Open311Key[] }> {
  const [groups, keys] = await Promise.all([
    get<Page<CityGroup>>('/admin/city-groups?pageSize=100').then((p) => p.data.map((g) => ({ id: g.id, name: g.name }))),
    getAll<Open311Key>('/admin/open311-keys'),
  ]);
  return { groups, keys };
}

export default function Open311KeysScreen(_: ScreenProps) {
  const data = useResource('open311-keys', loadKeys);
  const [created, setCreated] = useState<CreatedOpen311Key | null>(null);
  const [status, setStatus] = useState<string | null>(null);
  const [problem, setProblem] = useState<unknown>(null);

  const revoke = async (key: Open311Key) => {
    if (!confirm(`Révoquer la clé ${quoted(key.name)}\u202f? Le partenaire ne pourra plus déposer de demandes avec elle.`)) return;
    setStatus(null);
    setProblem(null);
    try {
      await removeRecord(`/admin/open311-keys/${key.id}`);
      if (created?.id === key.id) setCreated(null);
      setStatus(`Clé ${quoted(key.name)} révoquée.`);
      data.reload();
    } catch (err) {
      setProblem(err);
    }
  };

  return (
    <section>
      <Title text="Clés Open311">Clés Open311</Title>
      <p class="muted">
        Les partenaires (FixMyStreet, l’application d’une commune…) déposent les demandes des habitants par l’API Open311, chacun avec une clé liée à une
        collectivité. Une clé n’est affichée qu’une fois, à sa création&nbsp;: perdue, elle se révoque et se remplace.
      </p>
      <Notices status={status} problem={problem} />
      <Loaded resource={data} what="des clés">
        {({ groups, keys }) => {
          const groupName = (id: string) => groups.find((g) => g.id === id)?.name ?? 'Collectivité inconnue';
          return (
            <>
              {created && <NewKey created={created} groupName={groupName(created.cityGroupId)} onHide={() => setCreated(null)} />}
              <h2>Clés en service</h2>
              <Table
                caption="Clés Open311 en service"
                rows={keys}
                rowKey={(k) => k.id}
                empty="Aucune clé pour l’instant."
                columns={[
                  { label: 'Partenaire', cell: (k) => k.name },
                  { label: 'Collectivité', cell: (k) => groupName(k.cityGroupId) },
                  { label: 'Créée le', cell: (k) => <time dateTime={k.createdAt}>{frenchInstant(k.createdAt)}</time> },
                  {
                    label: 'Dernière utilisation',
                    cell: (k) => (k.lastUsedAt === null ? 'jamais' : <time dateTime={k.lastUsedAt}>{frenchInstant(k.lastUsedAt)}</time>),
                  },
                  {
                    label: 'Actions',
                    class: 'actions-cell',
                    cell: (k) => (
                      <button type="button" class="link-button danger" onClick={() => void revoke(k)}>
                        Révoquer<span class="visually-hidden"> la clé {k.name}</span>
                      </button>
                    ),
                  },
                ]}
              />
              <CreateKeyForm
                groups={groups}
                onCreated={(key) => {
                  setStatus(null);
                  setProblem(null);
                  setCreated(key);
                  data.reload();
                }}
              />
            </>
          );
        }}
      </Loaded>
    </section>
  );
}

function CreateKeyForm({ groups, onCreated }: { groups: Group[]; onCreated: (key: CreatedOpen311Key) => void }) {
  const [cityGroupId, setGroup] = useState(groups.length === 1 ? groups[0].id : '');
  const [name, setName] = useState('');
  const [error, setError] = useState<unknown>(null);
  const [saving, setSaving] = useState(false);
  const create = async (event: Event) => {
    event.preventDefault();
    setSaving(true);
    setError(null);
    try {
      // An unchosen group is sent as it is: the API's refusal is shown at « Collectivité ».
      const { data } = await request<CreatedOpen311Key>('POST', '/admin/open311-keys', { body: { cityGroupId, name: name.trim() } });
      setName('');
      onCreated(data);
    } catch (err) {
      setError(err);
    } finally {
      setSaving(false);
    }
  };
  const placed = ['cityGroupId', 'name'].includes(refusedField(error) ?? '');
  return (
    <form class="card" aria-labelledby="new-key-title" noValidate onSubmit={(e) => void create(e)}>
      <h2 id="new-key-title">Nouvelle clé</h2>
      <SelectField
        label="Collectivité"
        value={cityGroupId}
        required
        options={[...(groups.length === 1 ? [] : [{ value: '', label: 'Choisissez une collectivité' }]), ...groups.map((g) => ({ value: g.id, label: g.name }))]}
        error={fieldError({ saveError: error }, 'cityGroupId')}
        onChange={(value) => {
          setGroup(value);
          setError(null);
        }}
      />
      <TextField
        label="Nom du partenaire"
        value={name}
        required
        maxLength={120}
        hint="Qui utilisera la clé, par exemple FixMyStreet."
        error={fieldError({ saveError: error }, 'name')}
        onInput={(value) => {
          setName(value);
          setError(null);
        }}
      />
      {error !== null && !placed && <Problem error={error} />}
      <div class="actions">
        <button type="submit" class="button" disabled={saving}>
          {saving ? 'Création…' : 'Créer la clé'}
        </button>
      </div>
    </form>
  );
}

/** The key just created, shown this once: to copy now. */
function NewKey({ created, groupName, onHide }: { created: CreatedOpen311Key; groupName: string; onHide: () => void }) {
  const heading = useRef<HTMLHeadingElement>(null);
  const [copied, setCopied] = useState<string | null>(null);
  useEffect(() => heading.current?.focus(), [created.id]);
  const copy = async () => {
    try {
      await navigator.clipboard.writeText(created.key);
      setCopied('Clé copiée dans le presse-papiers.');
    } catch {
      setCopied('La copie a échoué\u00a0: sélectionnez la clé et copiez-la à la main.');
    }
  };
  return (
    <div class="new-key" role="region" aria-labelledby="new-key-shown">
      <h2 id="new-key-shown" ref={heading} tabIndex={-1}>
        Clé de {quoted(created.name)} pour {groupName}
      </h2>
      <p>
        <strong>Copiez-la maintenant et transmettez-la au partenaire&nbsp;: elle ne sera plus jamais affichée.</strong> Seule son empreinte est conservée.
      </p>
      <label for="new-key-value">Clé API</label>
      <div class="new-key-value">
        <input id="new-key-value" type="text" readOnly value={created.key} spellcheck={false} onFocus={(e) => e.currentTarget.select()} />
        <button type="button" class="button" onClick={() => void copy()}>
          Copier
        </button>
      </div>
      {copied && <Status>{copied}</Status>}
      <p>
        <button type="button" class="link-button" onClick={onHide}>
          J’ai copié la clé, la masquer
        </button>
      </p>
    </div>
  );
}
