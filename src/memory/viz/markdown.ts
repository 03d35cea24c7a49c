// A small Markdown renderer for page bodies and assistant turns: the text is escaped first, so only the markup this
// file writes can be HTML; links keep only http(s), mailto and in-dashboard targets.

export function escapeHtml(s: string): string {
  return s
    .replaceAll("&", "&amp;")
    .replaceAll("<", "&lt;")
    .replaceAll(">", "&gt;")
    .replaceAll('"', "&quot;")
    .replaceAll("'", "&#39;");
}

/** Inline markup on already-escaped text: code, bold, italics, links, and [[slug]] page links. */
function inline(escaped: string, pageHref: (slug: string) => string): string {
  const codes: string[] = [];
  let out = escaped.replace(/`([^`]+)`/g, (_, c: string) => {
    codes.push(`<code>${c}</code>`);
    return `\uE000${codes.length - 1}\uE000`;
  });
  out = out
    .replace(/\*\*([^*]+)\*\*/g, "<strong>$1</strong>")
    .replace(/(^|[^*\w])\*([^*\s][^*]*)\*(?!\w)/g, "$1<em>$2</em>")
    .replace(/\[\[([a-z0-9][a-z0-9 -]*)\]\]/gi, (_, s: string) => {
      const slug = s.toLowerCase().replace(/[^a-z0-9-]+/g, "-");
      return `<a href="${pageHref(slug)}">${s}</a>`;
    })
    .replace(/\[([^\]]+)\]\(((?:https?:\/\/|mailto:)[^\s)]+)\)/g, '<a href="$2" rel="noreferrer noopener">$1</a>');
  return out.replace(/\uE000(\d+)\uE000/g, (_, i: string) => codes[Number(i)] ?? "");
}

/** Headings, lists, fenced code, paragraphs; everything else is text. */
export function renderMarkdown(md: string, pageHref: (slug: string) => string = (s) => `/view/page/${s}`): string {
  const out: string[] = [];
  const lines = md.replace(/\r\n/g, "\n").split("\n");
  let para: string[] = [];
  let list: "ul" | "ol" | undefined;
  const flush = () => {
    if (para.length) out.push(`<p>${inline(escapeHtml(para.join(" ")), pageHref)}</p>`);
    para = [];
  };
  const close = () => {
    if (list) out.push(`</${list}>`);
    list = undefined;
  };
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i] ?? "";
    if (line.startsWith("```")) {
      flush();
      close();
      const code: string[] = [];
      for (i++; i < lines.length && !(lines[i] ?? "").startsWith("```"); i++) code.push(lines[i] ?? "");
      out.push(`<pre><code>${escapeHtml(code.join("\n"))}</code></pre>`);
      continue;
    }
    const heading = /^(#{1,6})\s+(.*)$/.exec(line);
    const bullet = /^\s*[-*+]\s+(.*)$/.exec(line);
    const numbered = /^\s*\d+[.)]\s+(.*)$/.exec(line);
    if (heading) {
      flush();
      close();
      const level = Math.min(6, (heading[1] ?? "#").length + 2);
      out.push(`<h${level}>${inline(escapeHtml(heading[2] ?? ""), pageHref)}</h${level}>`);
    } else if (bullet || numbered) {
      flush();
      const kind = bullet ? "ul" : "ol";
      if (list !== kind) {
        close();
        out.push(`<${kind}>`);
        list = kind;
      }
      out.push(`<li>${inline(escapeHtml((bullet ?? numbered)?.[1] ?? ""), pageHref)}</li>`);
    } else if (!line.trim()) {
      flush();
      close();
    } else {
      close();
      para.push(line.trim());
    }
  }
  flush();
  close();
  return out.join("\n");
}
