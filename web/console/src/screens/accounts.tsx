// The agents' accounts (permission USERS): the accounts of the agent's groups (every account for a super admin),
// a form to create or change one (e-mail, name, permissions, groups, password, active), and deactivation.
// The API decides who may give what (docs/api.md, the admin API); its refusals are shown at the field they name.
import { useState } from 'preact/hooks';
import { currentUser, getAll, request, type Permission, type User } from '../api.ts';
import { EditorForm, fieldError } from '../editor-form.tsx';
import { useEditing, useEditor } from '../editor.tsx';
import { Checkbox, TextField } from '../form-fields.tsx';
import { frenchDay, ofName } from '../french.ts';
import type { ScreenProps } from '../screens.ts';
import { Table } from '../table.tsx';
import type { CityGroup } from '../types.ts';
import { Loaded, Notices, Title, useResource } from '../ui.tsx';

/** Every permission, in the API's order, with what it opens in the agents' words. */
export const PERMISSION_LABELS: Record<Permission, string> = {
  CITIES: 'Données de collecte',
  CHALLENGES: 'Défis',
  BLOG_POSTS: 'Actualités',
  CMS: 'Sites, pages et médias',
  CHAT_CONVERSATIONS: 'Conversations',
  USERS: 'Comptes des agents',
  REQUESTS: 'Demandes des habitants',
};
const PERMISSIONS = Object.keys(PERMISSION_LABELS) as Permission[];

/** The API's minimum (src/auth/passwords.ts): said in the hint; the API itself refuses a shorter one. */
const MIN_PASSWORD = 12;

interface Form {
  email: string;
  name: string;
  password: string;
  permissions: Permission[];
  cityGroupIds: string[];
  superAdmin: boolean;
  active: boolean;
}

const LABELS: Record<keyof Form, string> = {
  email: 'Adresse e-mail',
  name: 'Nom',
  password: 'Mot de passe',
  permissions: 'Permissions',
  cityGroupIds: 'Collectivités',
  superAdmin: 'Super administrateur (toutes les collectivités, tous les droits)',
  active: 'Compte actif',
};

const EMPTY: Form = { email: '', name: '', password: '', permissions: [], cityGroupIds: [], superAdmin: false, active: true };

const toForm = (u: User): Form => ({
  email: u.email,
  name: u.name,
  password: '',
  permissions: u.permissions,
  cityGroupIds: u.cityGroupIds,
  superAdmin: u.superAdmin,
  active: u.active,
});

function toBody(f: Form, creating: boolean) {
  const body: Record<string, unknown> = { email: f.email.trim(), name: f.name.trim(), permissions: f.permissions, cityGroupIds: f.cityGroupIds, active: f.active };
  // Only a super admin names super admins; another agent's form never sends the field (the API would refuse it).
  if (currentUser()?.superAdmin) body.superAdmin = f.superAdmin;
  // Editing: an empty password field keeps the current password.
  if (creating || f.password !== '') body.password = f.password;
  return body;
}

const toggle = <T,>(list: T[], item: T, on: boolean): T[] => (on ? [...list.filter((x) => x !== item), item] : list.filter((x) => x !== item));

function FieldsetError({ message }: { message: string | null }) {
  return message ? <p class="field-error">{message}</p> : null;
}

function AccountForm({ id, groups, onDone }: { id: string | null; groups: CityGroup[]; onDone: (message: string | null) => void }) {
  const me = currentUser()!;
  const editor = useEditor<User, Form>({
    key: id ? `user:${id}` : 'user:new',
    url: id ? `/admin/users/${id}` : null,
    createUrl: '/admin/users',
    // A new account of an agent with one group is of that group.
    empty: { ...EMPTY, cityGroupIds: groups.length === 1 ? [groups[0].id] : [] },
    toForm,
    toBody,
    secret: ['password'],
    onSaved: (u, created) => onDone(created ? `Compte ${ofName(u.name)} créé.` : `Compte ${ofName(u.name)} enregistré.`),
  });
  // An agent gives only what it holds itself (the API says so too, with 403): the others are shown, not offered.
  const grantable = me.superAdmin ? PERMISSIONS : PERMISSIONS.filter((p) => me.permissions.includes(p));
  return (
    <EditorForm
      editor={editor}
      id="account-form-title"
      title={(f) => (id ? `Modifier le compte ${ofName(f.name || '…')}` : 'Nouveau compte')}
      labels={LABELS}
      atFields={['email', 'name', 'password', 'permissions', 'cityGroupIds', 'superAdmin', 'active']}
      onCancel={() => onDone(null)}
    >
      {(f) => (
        <>
          <TextField label={LABELS.email} type="email" autocomplete="off" value={f.email} maxLength={254} error={fieldError(editor, 'email')} onInput={(email) => editor.set({ email })} />
          <TextField label={LABELS.name} value={f.name} maxLength={200} error={fieldError(editor, 'name')} onInput={(name) => editor.set({ name })} />
          <TextField
            label={id ? 'Nouveau mot de passe' : 'Mot de passe initial'}
            type="text"
            autocomplete="new-password"
            spellcheck={false}
            value={f.password}
            hint={`Au moins ${MIN_PASSWORD} caractères.${id ? ' Laissez vide pour garder le mot de passe actuel\u202f; un nouveau mot de passe ferme les sessions ouvertes.' : ' Transmettez-le à l’agent par un moyen sûr (pas dans le même courriel que son adresse de connexion).'}`}
            error={fieldError(editor, 'password')}
            onInput={(password) => editor.set({ password })}
          />
          <fieldset>
            <legend>{LABELS.permissions}</legend>
            {!me.superAdmin && <p class="hint">Vous ne pouvez donner que les permissions de votre propre compte.</p>}
            {PERMISSIONS.map((p) => (
              <Checkbox
                key={p}
                label={PERMISSION_LABELS[p]}
                checked={f.permissions.includes(p)}
                disabled={!grantable.includes(p)}
                onChange={(on) => editor.set({ permissions: PERMISSIONS.filter((x) => (x === p ? on : f.permissions.includes(x))) })}
              />
            ))}
            <FieldsetError message={fieldError(editor, 'permissions')} />
          </fieldset>
          <fieldset>
            <legend>{LABELS.cityGroupIds}</legend>
            {groups.length === 0 && <p class="muted">Aucune collectivité.</p>}
            {groups.map((g) => (
              <Checkbox key={g.id} label={g.name} checked={f.cityGroupIds.includes(g.id)} onChange={(on) => editor.set({ cityGroupIds: toggle(f.cityGroupIds, g.id, on) })} />
            ))}
            <FieldsetError message={fieldError(editor, 'cityGroupIds')} />
          </fieldset>
          {me.superAdmin && <Checkbox label={LABELS.superAdmin} checked={f.superAdmin} disabled={id === me.id} onChange={(superAdmin) => editor.set({ superAdmin })} />}
          {id && (
            <>
              <Checkbox label={LABELS.active} checked={f.active} disabled={id === me.id} onChange={(active) => editor.set({ active })} />
              <FieldsetError message={fieldError(editor, 'active')} />
            </>
          )}
        </>
      )}
    </EditorForm>
  );
}

/** Turns an account on or off as it is now: read for its ETag, then PATCH with If-Match. */
async function setActive(id: string, active: boolean): Promise<User> {
  const now = await request<User>('GET', `/admin/users/${id}`);
  return (await request<User>('PATCH', `/admin/users/${id}`, { body: { active }, ifMatch: now.etag })).data;
}

export default function Accounts({ query }: ScreenProps) {
  const me = currentUser()!;
  const data = useResource('accounts', async () => ({
    users: await getAll<User>('/admin/users'),
    groups: await getAll<CityGroup>('/admin/city-groups'),
  }));
  const { editing, status, setStatus, open, done } = useEditing(query, data.reload);
  const [problem, setProblem] = useState<unknown>(null);

  const switchActive = async (u: User) => {
    if (u.active && !confirm(`Désactiver le compte ${ofName(u.name)}\u202f? Ses sessions ouvertes seront fermées.`)) return;
    setProblem(null);
    try {
      const saved = await setActive(u.id, !u.active);
      setStatus(saved.active ? `Compte ${ofName(saved.name)} réactivé.` : `Compte ${ofName(saved.name)} désactivé.`);
      data.reload();
    } catch (err) {
      setProblem(err);
    }
  };

  return (
    <Loaded resource={data} what="des comptes">
      {({ users, groups }) => {
        const groupName = (id: string) => groups.find((g) => g.id === id)?.name ?? 'autre collectivité';
        return (
          <section>
            <Title text="Comptes des agents">Comptes des agents</Title>
            <p class="muted">
              {me.superAdmin ? 'Tous les comptes de toutes les collectivités.' : 'Les comptes des agents de vos collectivités.'} Un compte désactivé ne peut plus se connecter.
            </p>
            <Notices status={status} problem={problem} />
            {editing ? (
              <AccountForm key={editing} id={editing === 'nouveau' ? null : editing} groups={groups} onDone={done} />
            ) : (
              <p>
                <button type="button" class="button" onClick={() => open('nouveau')}>
                  Créer un compte
                </button>
              </p>
            )}
            <Table
              caption="Comptes des agents"
              rows={users}
              rowKey={(u) => u.id}
              empty="Aucun compte."
              columns={[
                { label: 'Nom', cell: (u) => u.name },
                { label: 'Adresse e-mail', cell: (u) => u.email },
                {
                  label: 'Permissions',
                  cell: (u) => (u.superAdmin ? 'Super administrateur' : u.permissions.map((p) => PERMISSION_LABELS[p]).join(', ') || '—'),
                },
                { label: 'Collectivités', cell: (u) => (u.superAdmin ? 'Toutes' : u.cityGroupIds.map(groupName).join(', ') || '—') },
                { label: 'État', cell: (u) => (u.active ? 'Actif' : 'Désactivé') },
                { label: 'Dernière connexion', cell: (u) => (u.lastLoginAt ? frenchDay(u.lastLoginAt) : 'jamais') },
                {
                  label: 'Actions',
                  class: 'actions-cell',
                  cell: (u) => (
                    <>
                      <button type="button" class="link-button" onClick={() => open(u.id)}>
                        Modifier<span class="visually-hidden"> le compte {ofName(u.name)}</span>
                      </button>
                      {u.id !== me.id && (
                        <button type="button" class={`link-button${u.active ? ' danger' : ''}`} onClick={() => void switchActive(u)}>
                          {u.active ? 'Désactiver' : 'Réactiver'}
                          <span class="visually-hidden"> le compte {ofName(u.name)}</span>
                        </button>
                      )}
                    </>
                  ),
                },
              ]}
            />
          </section>
        );
      }}
    </Loaded>
  );
}
