// Desktop notices: notify-send on Linux, osascript on macOS; an absent tool is skipped quietly.
import type { Notify } from "../ports/index.ts";

export function desktopNotify(platform: NodeJS.Platform): Notify {
  return {
    async notice(title, body) {
      const argv =
        platform === "darwin"
          ? ["osascript", "-e", `display notification ${JSON.stringify(body)} with title ${JSON.stringify(title)}`]
          : ["notify-send", title, body];
      const bin = Bun.which(argv[0] ?? "");
      if (!bin) return;
      try {
        await Bun.spawn([bin, ...argv.slice(1)], { stdout: "ignore", stderr: "ignore" }).exited;
      } catch {
        // a notice is a courtesy; failing to show one changes nothing
      }
    },
  };
}
