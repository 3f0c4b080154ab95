// The form of one menu item (label, link, parent), and the tree helpers the menu screen shares with it.
import { ConflictPanel, EditorActions, RestoredNotice, useEditor } from '../editor.tsx';
import { Problem, SelectField, TextField } from '../ui.tsx';
import type { CmsPage, LinkType, MenuItem } from './types.ts';

interface Form {
  label: string;
  linkType: LinkType;
  pageId: string;
  externalUrl: string;
  parentId: string;
}

const LABELS: Record<keyof Form, string> = {
  label: 'Libellé',
  linkType: 'Lien',
  pageId: 'Page',
  externalUrl: 'Adresse',
  parentId: 'Placé sous',
};

const LINK_TYPES: { value: LinkType; label: string }[] = [
  { value: 'PAGE', label: 'Une page du site' },
  { value: 'EXTERNAL', label: 'Une adresse web' },
  { value: 'NONE', label: 'Aucun (titre de sous-menu)' },
];

const EMPTY: Form = { label: '', linkType: 'PAGE', pageId: '', externalUrl: '', parentId: '' };

/** The items under `parentId`, in their order. */
export const childrenOf = (items: MenuItem[], parentId: string | null) =>
  items.filter((i) => i.parentId === parentId).sort((a, b) => a.order - b.order || items.indexOf(a) - items.indexOf(b));

/** An item and every item under it. */
export function subtree(items: MenuItem[], id: string): Set<string> {
  const found = new Set([id]);
  for (let grew = true; grew; ) {
    grew = false;
    for (const i of items) if (i.parentId && found.has(i.parentId) && !found.has(i.id)) (found.add(i.id), (grew = true));
  }
  return found;
}

export function ItemForm({
  menuId,
  id,
  items,
  pages,
  onDone,
}: {
  menuId: string;
  id: string | null;
  items: MenuItem[];
  pages: CmsPage[];
  onDone: (message: string | null) => void;
}) {
  const editor = useEditor<MenuItem, Form>({
    key: id ? `menuItem:${id}` : `menuItem:new:${menuId}`,
    url: id ? `/admin/menu-items/${id}` : null,
    createUrl: `/admin/menus/${menuId}/items`,
    empty: EMPTY,
    toForm: (i) => ({ label: i.label, linkType: i.linkType, pageId: i.pageId ?? '', externalUrl: i.externalUrl ?? '', parentId: i.parentId ?? '' }),
    toBody: (f, creating) => {
      const parentId = f.parentId || null;
      const siblings = childrenOf(items, parentId).filter((i) => i.id !== id);
      const moved = creating || items.find((i) => i.id === id)?.parentId !== parentId;
      return {
        label: f.label.trim(),
        linkType: f.linkType,
        pageId: f.linkType === 'PAGE' ? f.pageId || null : null,
        externalUrl: f.linkType === 'EXTERNAL' ? f.externalUrl.trim() || null : null,
        parentId,
        // A new item, or one moved under another parent, goes last among its siblings.
        ...(moved ? { order: Math.max(0, ...siblings.map((i) => i.order)) + 1 } : {}),
      };
    },
    onSaved: (i, created) => onDone(created ? `Élément « ${i.label} » ajouté.` : `Élément « ${i.label} » enregistré.`),
  });
  if (editor.loadError) return <Problem error={editor.loadError} />;
  const f = editor.form;
  if (!f) return null;
  const excluded = id ? subtree(items, id) : new Set<string>();
  const depthOf = (i: MenuItem): number => (i.parentId ? 1 + depthOf(items.find((p) => p.id === i.parentId) ?? { ...i, parentId: null }) : 0);
  return (
    <form
      class="card"
      aria-labelledby="menu-item-form-title"
      onSubmit={(e) => {
        e.preventDefault();
        void editor.save();
      }}
    >
      <h2 id="menu-item-form-title">{id ? `Modifier « ${f.label || '…'} »` : 'Nouvel élément du menu'}</h2>
      <RestoredNotice editor={editor} />
      <ConflictPanel
        editor={editor}
        labels={LABELS}
        show={(v, field) =>
          field === 'pageId' ? (pages.find((p) => p.id === v)?.title ?? '—') : field === 'parentId' ? (items.find((i) => i.id === v)?.label ?? 'Haut du menu') : v ? String(v) : '—'
        }
      />
      <TextField label={LABELS.label} value={f.label} required maxLength={200} onInput={(label) => editor.set({ label })} />
      <SelectField label={LABELS.linkType} value={f.linkType} options={LINK_TYPES} onChange={(v) => editor.set({ linkType: v as LinkType })} />
      {f.linkType === 'PAGE' && (
        <SelectField
          label={LABELS.pageId}
          value={f.pageId}
          options={[{ value: '', label: 'Choisissez une page' }, ...pages.map((p) => ({ value: p.id, label: p.publishedAt ? p.title : `${p.title} (non publiée)` }))]}
          hint="Un lien vers une page non publiée n’apparaît pas aux habitants tant qu’elle ne l’est pas."
          onChange={(pageId) => editor.set({ pageId })}
        />
      )}
      {f.linkType === 'EXTERNAL' && (
        <TextField label={LABELS.externalUrl} type="url" value={f.externalUrl} required placeholder="https://…" onInput={(externalUrl) => editor.set({ externalUrl })} />
      )}
      <SelectField
        label={LABELS.parentId}
        value={f.parentId}
        options={[
          { value: '', label: 'Haut du menu' },
          ...items.filter((i) => !excluded.has(i.id)).map((i) => ({ value: i.id, label: `${'– '.repeat(depthOf(i))}${i.label}` })),
        ]}
        onChange={(parentId) => editor.set({ parentId })}
      />
      <EditorActions editor={editor} onCancel={() => onDone(null)} />
    </form>
  );
}

