// A wall as a macOS seatbelt profile (sandbox-exec's SBPL), built from the same description as the Landlock
// ruleset. In SBPL the last rule that matches decides, so each section denies broadly and then allows. Seatbelt
// matches paths one by one, so what Landlock can only carve with a cost (a kept file inside a writable folder)
// is exact here, and the network is held by address: localhost and the proxy's port. Pure.
import type { Wall, WallPath } from "./description.ts";

/** An SBPL string: backslash, quote and line breaks escaped, so no path can end the string or the form. */
const q = (s: string) =>
  `"${s.replaceAll("\\", "\\\\").replaceAll('"', '\\"').replaceAll("\n", "\\n").replaceAll("\r", "\\r")}"`;

/** `(subpath …)` for what may be a folder, which also covers a file of that exact path. */
const filters = (paths: readonly WallPath[] | readonly string[]) =>
  paths.map((p) => `  (subpath ${q(typeof p === "string" ? p : p.path)})`).join("\n");

function section(title: string, lines: readonly (string | undefined)[]): string {
  return [`; ${title}`, ...lines.filter((l): l is string => l !== undefined)].join("\n");
}

export function seatbeltProfile(wall: Wall): string {
  const out = [
    section(`memnox ${wall.kind} wall: generated from the wall's description, do not edit`, [
      "(version 1)",
      "(allow default)",
    ]),
  ];
  if (wall.unreadable.length > 0) {
    out.push(
      section(
        // Counts only: a comment runs to the end of its line, and a path may hold a line break.
        `reading: ${wall.unreadable.length} paths cannot be read`,
        [`(deny file-read-data\n${filters(wall.unreadable)})`],
      ),
    );
  }
  if (wall.writable) {
    const devices = (wall.devices ?? []).map((d) => `  (${d === "/dev/pts" ? "subpath" : "literal"} ${q(d)})`);
    out.push(
      section("writing: only where the description allows, never what it keeps", [
        "(deny file-write*)",
        `(allow file-write*\n${filters(wall.writable)})`,
        // macOS names each terminal /dev/ttysNNN, which no fixed list holds.
        `(allow file-write-data file-ioctl\n${[...devices, '  (regex #"^/dev/ttys[0-9]+$")'].join("\n")})`,
        wall.unwritable.length > 0 ? `(deny file-write*\n${filters(wall.unwritable)})` : undefined,
      ]),
    );
  }
  if (wall.tcp) {
    const ports = wall.tcp.connect.map((p) => `  (remote tcp ${q(`localhost:${p}`)})`);
    const sockets = (wall.sockets ?? []).map((s) => `  (remote unix-socket (path-literal ${q(s)}))`);
    out.push(
      section(`network: TCP only to ${wall.tcp.why} on localhost; listening is left open`, [
        "(deny network*)",
        `(allow network-outbound\n${[...ports, ...sockets].join("\n")})`,
        "(allow network-bind network-inbound (local tcp))",
      ]),
    );
  }
  if (wall.scoped)
    out.push(section("signals reach only what runs inside", ["(deny signal)", "(allow signal (target same-sandbox))"]));
  return `${out.join("\n\n")}\n`;
}
