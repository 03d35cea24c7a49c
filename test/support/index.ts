export type { RunResult } from "./binary.ts";
export { compiledBinary, runBinary, runSource } from "./binary.ts";
export type { TempDir, Tree } from "./fs.ts";
export { tempDir, writeTree } from "./fs.ts";
export type { GitRepo } from "./git.ts";
export { gitRepo } from "./git.ts";
export type { FakeHome } from "./home.ts";
export { fakeHome, hermeticEnv, testContext } from "./home.ts";
