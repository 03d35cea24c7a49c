// The stable copy of the binary: copied atomically, left alone when it is this version, replaced when it is not.
import { describe, expect, test } from "bun:test";
import { readFileSync, statSync, utimesSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { readReceipt } from "../src/update/receipt.ts";
import { installApp, removeApp } from "../src/wire/app.ts";
import { fakeHome, testContext } from "./support/index.ts";

describe("the stable binary", () => {
  test("copied once, unchanged after, replaced by a new version; the copy itself and a source run copy nothing", () => {
    using home = fakeHome({ "dl/memnox": { content: "#!/bin/sh\necho one\n", mode: 0o755 } });
    const binary = home.join("dl", "memnox");
    const base = testContext(home).ctx;
    const ctx = { ...base, execPath: binary, selfArgv: [binary] };
    const app = join(home.memnoxHome, "app", "memnox");
    expect(installApp(ctx)).toMatchObject({ status: "copied", path: app });
    expect(readFileSync(app, "utf8")).toBe("#!/bin/sh\necho one\n");
    expect(readReceipt(ctx.paths)).toMatchObject({ method: "copy", source: binary });
    expect(statSync(app).mode & 0o777).toBe(0o755);
    expect(installApp(ctx).status).toBe("unchanged");
    writeFileSync(binary, "#!/bin/sh\necho two\n");
    utimesSync(binary, new Date(0), new Date(0));
    expect(installApp(ctx).status).toBe("copied");
    expect(readFileSync(app, "utf8")).toBe("#!/bin/sh\necho two\n");
    expect(installApp({ ...ctx, execPath: app, selfArgv: [app] }).status).toBe("self");
    expect(installApp(base).status).toBe("source");
    expect(removeApp(ctx)).toBe(true);
    expect(() => statSync(join(home.memnoxHome, "app"))).toThrow();
  });
});
