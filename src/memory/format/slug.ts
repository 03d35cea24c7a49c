// Slugs as memex derives them, and the [[slug]] links a body carries.
const MAX_SLUG = 64;
export const RESERVED_SLUGS: ReadonlySet<string> = new Set(["index", "log"]);
const PAGE_SLUG = /^[a-z0-9][a-z0-9-]{0,127}$/;

export function slugify(text: string): string {
  return text
    .toLowerCase()
    .replace(/[^a-z0-9-]+/g, "-")
    .replace(/-{2,}/g, "-")
    .replace(/^-+|-+$/g, "")
    .slice(0, MAX_SLUG);
}

/** A title's slug by memex's [pages] slug_algo: kebab, or the first twelve hex digits of its SHA-1. */
export function deriveSlug(title: string, algo: "kebab" | "sha1" = "kebab"): string {
  return algo === "sha1" ? new Bun.CryptoHasher("sha1").update(title).digest("hex").slice(0, 12) : slugify(title);
}

/** The slug a rule's decision page has, so remembering it again updates that page and a hook can tell it is the rule's. */
export function decisionSlug(rule: string): string {
  return `rule-${slugify(rule.trim())}`.slice(0, MAX_SLUG).replace(/-+$/, "");
}

export function isPageSlug(slug: string): boolean {
  return PAGE_SLUG.test(slug);
}

/** `base`, or `base-2`, `base-3`… the first not taken; reserved names count as taken. */
export function uniqueSlug(base: string, taken: (slug: string) => boolean): string {
  const isTaken = (s: string) => RESERVED_SLUGS.has(s) || taken(s);
  if (!isTaken(base)) return base;
  let n = 2;
  while (isTaken(`${base}-${n}`)) n++;
  return `${base}-${n}`;
}

const WIKI_LINK = /\[\[([^[\]]+)\]\]/g;

/** Unique, order-preserving slugs of the `[[Some Page]]` references in a body. */
export function wikiLinks(body: string): string[] {
  const seen = new Set<string>();
  for (const m of body.matchAll(WIKI_LINK)) {
    const slug = m[1] ? slugify(m[1]) : "";
    if (slug) seen.add(slug);
  }
  return [...seen];
}
