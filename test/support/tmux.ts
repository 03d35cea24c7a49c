// A real terminal a test types into: a tmux server of the test's own (its own socket), one pane running bash with
// the test's environment. The screen is read back, and a test waits for what it expects to appear, never for a time.
import { tempDir } from "./fs.ts";

export interface Terminal extends Disposable {
  /** Types `text`, then Enter unless `enter` is false. */
  type(text: string, enter?: boolean): void;
  /** A key by tmux's name: `C-c`, `C-d`, `Enter`. */
  key(name: string): void;
  /** Everything on the screen and in its history, as text. */
  screen(): string;
  /** Resolves with the screen once `wanted` matches it; throws with the screen when it does not within `ms`. */
  until(wanted: RegExp, ms?: number): Promise<string>;
  /** Types a line and waits for the exit code it leaves (`echo rc=$?` after it). */
  run(line: string, ms?: number): Promise<number>;
}

export function terminal(env: Record<string, string>, cwd: string, width = 120): Terminal {
  const sock = tempDir("memnox-tmux");
  const socket = `${sock.path}/s`;
  const tmux = (...args: string[]) => {
    const r = Bun.spawnSync(["tmux", "-S", socket, ...args], { env, cwd, stdout: "pipe", stderr: "pipe" });
    if (r.exitCode !== 0) throw new Error(`tmux ${args[0]} failed: ${r.stderr.toString()}`);
    return r.stdout.toString();
  };
  tmux("new-session", "-d", "-s", "t", "-x", String(width), "-y", "50", "bash --norc --noprofile");
  tmux("set-option", "-t", "t", "history-limit", "5000");
  let runs = 0;
  const screen = () => tmux("capture-pane", "-p", "-J", "-S", "-5000", "-t", "t");
  const until = async (wanted: RegExp, ms = 30_000) => {
    const deadline = Date.now() + ms;
    for (;;) {
      const now = screen();
      if (wanted.test(now)) return now;
      if (Date.now() > deadline) throw new Error(`the screen never showed ${wanted}:\n${now}`);
      await Bun.sleep(50);
    }
  };
  return {
    type(text, enter = true) {
      tmux("send-keys", "-t", "t", "-l", text);
      if (enter) tmux("send-keys", "-t", "t", "Enter");
    },
    key(name) {
      tmux("send-keys", "-t", "t", name);
    },
    screen,
    until,
    async run(line, ms) {
      runs += 1;
      const mark = `rc${runs}=`;
      this.type(`${line}; echo ${mark}$?`);
      const seen = await until(new RegExp(`^${mark}(\\d+)$`, "m"), ms);
      return Number(new RegExp(`^${mark}(\\d+)$`, "m").exec(seen)?.[1]);
    },
    [Symbol.dispose]() {
      try {
        tmux("kill-server");
      } catch {
        // Already gone.
      }
      sock[Symbol.dispose]();
    },
  };
}
