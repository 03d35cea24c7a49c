// Code fetched from outside the project and run (or built) now: what `curl | sh` is, whichever tool does the fetching.
import type { Call } from "../call.ts";

/** `https://…`, `git+ssh://…`, `git@host:repo`, `github:u/r`: a source that is no registry name and no local path. */
export function isRemote(text: string): boolean {
  return (
    /^[a-z][a-z0-9+.-]*:\/\//i.test(text) ||
    /^(git|hg|svn|bzr)\+/i.test(text) ||
    /^[\w.-]+@[\w.-]+:/.test(text) ||
    /^(github|gitlab|bitbucket|gist|sourcehut):/i.test(text)
  );
}

/** npm's own spellings of a git or tarball source, besides URLs: `user/repo`, `user/repo#ref`. */
export function isRemoteNpmSpec(text: string): boolean {
  if (isRemote(text)) return true;
  const noAlias = text.replace(/^npm:/, "");
  if (noAlias !== text) return false;
  return /^[A-Za-z0-9][\w.-]*\/[\w.-]+(#.*)?$/.test(text) && !text.startsWith(".");
}

/** A pip requirement naming a direct source: `pkg @ https://…`, a URL, a VCS spec. */
export function isRemoteRequirement(text: string): boolean {
  return isRemote(text) || /^\s*[\w.[\],-]+\s*@\s*\S+:\/\//.test(text);
}

/**
 * `shell.fetched` on the source: code nobody here has read, fetched and run (or built, or installed from a place no
 * registry vouches for). A package the project already declares is its own code and never comes here.
 */
export function emitFetched(call: Call, source: string): void {
  call.emit({ name: "shell.fetched", class: "unknown", targets: [source] });
}
