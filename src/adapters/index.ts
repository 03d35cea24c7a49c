export { type Installed, installedAt, provingHome } from "./installed.ts";
export { desktopNotify } from "./notify.ts";
export { bunGit, bunProc, ownGit, runCaptured } from "./proc.ts";
export { osProcesses } from "./processes.ts";
export { bufferStdio, processStdio } from "./stdio.ts";
