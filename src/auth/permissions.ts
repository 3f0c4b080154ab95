/**
 * The permissions of an account (docs/api.md, the admin API). Each admin area asks for one; CHAT_CONVERSATIONS is the
 * console's (section 8). A super admin holds every permission for every group, whatever its list says.
 */
export const PERMISSIONS = ['CITIES', 'CHALLENGES', 'BLOG_POSTS', 'CMS', 'CHAT_CONVERSATIONS', 'USERS', 'REQUESTS'] as const;

export type Permission = (typeof PERMISSIONS)[number];

/** The permissions that let an agent write through /admin (all but the chat console's). */
export const ADMIN_PERMISSIONS: readonly Permission[] = ['CITIES', 'CHALLENGES', 'BLOG_POSTS', 'CMS', 'USERS', 'REQUESTS'];

export const isPermission = (value: string): value is Permission => (PERMISSIONS as readonly string[]).includes(value);
