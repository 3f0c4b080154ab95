// The form of one menu item (label, link, parent), and the tree helpers the menu screen shares with it.
import { EditorForm, fieldError, showValue } from '../editor-form.tsx';
import { useEditor } from '../editor.tsx';
import { SelectField, TextField } from '../form-fields.tsx';
import { quoted } from '../french.ts';
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
    onSaved: (i, created) => onDone(created ? `Élément ${quoted(i.label)} ajouté.` : `Élément ${quoted(i.label)} enregistré.`),
  });
  const excluded = id ? subtree(items, id) : new Set<string>();
  const depthOf = (i: MenuItem): number => (i.parentId ? 1 + depthOf(items.find((p) => p.id === i.parentId) ?? { ...i, parentId: null }) : 0);
  return (
    <EditorForm
      editor={editor}
      id="menu-item-form-title"
      title={(f) => (id ? `Modifier ${quoted(f.label || '…')}` : 'Nouvel élément du menu')}
      labels={LABELS}
      show={(v, field) =>
        field === 'pageId'
          ? (pages.find((p) => p.id === v)?.title ?? '—')
          : field === 'parentId'
            ? (items.find((i) => i.id === v)?.label ?? 'Haut du menu')
            : field === 'linkType'
              ? (LINK_TYPES.find((t) => t.value === v)?.label ?? '—')
              : showValue(v)
      }
      atFields={['label', 'pageId', 'externalUrl', 'parentId']}
      onCancel={() => onDone(null)}
    >
      {(f) => (
        <>
          <TextField label={LABELS.label} value={f.label} required maxLength={200} error={fieldError(editor, 'label')} onInput={(label) => editor.set({ label })} />
          <SelectField label={LABELS.linkType} value={f.linkType} options={LINK_TYPES} onChange={(v) => editor.set({ linkType: v as LinkType })} />
          {f.linkType === 'PAGE' && (
            <SelectField
              label={LABELS.pageId}
              value={f.pageId}
              options={[{ value: '', label: 'Choisissez une page' }, ...pages.map((p) => ({ value: p.id, label: p.publishedAt ? p.title : `${p.title} (non publiée)` }))]}
              hint="Un lien vers une page non publiée n’apparaît pas aux habitants tant qu’elle ne l’est pas."
              error={fieldError(editor, 'pageId')}
              onChange={(pageId) => editor.set({ pageId })}
            />
          )}
          {f.linkType === 'EXTERNAL' && (
            <TextField
              label={LABELS.externalUrl}
              type="url"
              value={f.externalUrl}
              required
              placeholder="https://…"
              error={fieldError(editor, 'externalUrl')}
              onInput={(externalUrl) => editor.set({ externalUrl })}
            />
          )}
          <SelectField
            label={LABELS.parentId}
            value={f.parentId}
            options={[
              { value: '', label: 'Haut du menu' },
              ...items.filter((i) => !excluded.has(i.id)).map((i) => ({ value: i.id, label: `${'– '.repeat(depthOf(i))}${i.label}` })),
            ]}
            error={fieldError(editor, 'parentId')}
            onChange={(parentId) => editor.set({ parentId })}
          />
        </>
      )}
    </EditorForm>
  );
}
