import { Type, type Static, type TSchema } from 'typebox';

/**
 * The listing envelope of the contract (section 6), shared by every paginated listing:
 * `{data, meta: {page, pageSize, total, totalPages}}`.
 */

/** Largest page a client may ask for: keeps one request's work bounded. */
export const MAX_PAGE_SIZE = 100;
export const DEFAULT_PAGE_SIZE = 20;
/**
 * Largest page number accepted (400 beyond): 10 million rows deep at the largest page size, far past any listing
 * here, whose OFFSET would be a scan anyway. Without a bound, `page=1e309` reached the handler as Infinity (Ajv takes
 * Infinity for an integer) and failed as a 500.
 */
export const MAX_PAGE = 100_000;

export const PaginationQuery = {
  page: Type.Integer({ minimum: 1, maximum: MAX_PAGE, default: 1, description: `Page number, from 1 to ${MAX_PAGE}` }),
  pageSize: Type.Integer({
    minimum: 1,
    maximum: MAX_PAGE_SIZE,
    default: DEFAULT_PAGE_SIZE,
    description: `Items per page, 1 to ${MAX_PAGE_SIZE}`,
  }),
};

export const PageMetaSchema = Type.Object({
  page: Type.Integer({ minimum: 1, maximum: MAX_PAGE }),
  pageSize: Type.Integer({ minimum: 1, maximum: MAX_PAGE_SIZE }),
  total: Type.Integer({ minimum: 0, description: 'Number of items over all pages' }),
  totalPages: Type.Integer({ minimum: 0, description: 'ceil(total / pageSize); 0 when there is no item' }),
});
export type PageMeta = Static<typeof PageMetaSchema>;

export const Envelope = <T extends TSchema>(item: T) =>
  Type.Object({ data: Type.Array(item), meta: PageMetaSchema }, { description: 'A page of a listing' });

export interface PageRequest {
  page: number;
  pageSize: number;
}

export function pageMeta({ page, pageSize }: PageRequest, total: number): PageMeta {
  return { page, pageSize, total, totalPages: Math.ceil(total / pageSize) };
}

/**
 * The rows to fetch for a page, or null when the page lies past the end (no query is needed, and a huge
 * page number never reaches the database as an out-of-range OFFSET).
 */
export function pageWindow({ page, pageSize }: PageRequest, total: number): { limit: number; offset: number } | null {
  const offset = (page - 1) * pageSize;
  return offset < total ? { limit: pageSize, offset } : null;
}

/** One page of a list already read whole and sorted (a few hundred rows at most), and the list's total. */
export function pageOf<T>(all: T[], page: PageRequest): { rows: T[]; total: number } {
  const window = pageWindow(page, all.length);
  return { rows: window ? all.slice(window.offset, window.offset + window.limit) : [], total: all.length };
}
