/**
 * What the pages module tells every instance (through the cache bus): a page changed (created,
 * edited, deleted), so the public page cache drops it. The message is the page's id followed by
 * the slugs it had or has, space-separated (ids and slugs hold no space).
 */
export const PAGE_CHANGED_CHANNEL = 'page-changed';

export function pageChangeMessage(id: string, slugs: readonly string[]): string {
  return [id, ...slugs].join(' ');
}

export function parsePageChange(message: string): { id: string; slugs: string[] } {
  const [id, ...slugs] = message.split(' ');
  return { id, slugs };
}
