export { installedAt, provingHome } from "./installed.ts";
export { desktopNotify } from "./notify.ts";
export { bunGit, bunProc, ownGit } from "./proc.ts";
export { osProcesses } from "./processes.ts";
export { processStdio } from "./stdio.ts";
