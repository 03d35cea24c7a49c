export { desktopNotify } from "./notify.ts";
export { bunGit, bunProc, ownGit, runCaptured } from "./proc.ts";
export { bufferStdio, processStdio } from "./stdio.ts";
