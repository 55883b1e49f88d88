/** Longest slug {@link slugify} returns. */
export const MAX_SLUG_CHARS = 40;

/**
 * A file-name-safe slug: lowercase ASCII letters, digits and single hyphens, at most
 * {@link MAX_SLUG_CHARS} characters, cut at a word boundary when it can be; `fallback` when nothing is left.
 */
export function slugify(text: string, fallback: string): string {
  const slug = text
    .normalize('NFKD')
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-+|-+$/g, '');
  if (slug === '') return fallback;
  if (slug.length <= MAX_SLUG_CHARS) return slug;
  const cut = slug.slice(0, MAX_SLUG_CHARS);
  const lastHyphen = cut.lastIndexOf('-');
  return (lastHyphen >= 10 ? cut.slice(0, lastHyphen) : cut).replace(/-+$/g, '');
}
