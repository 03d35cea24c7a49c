// Landlock's numbers (linux/landlock.h) and the ABI version each first appeared in. Pure.

/** Access rights on files and directories. */
export const FS = {
  EXECUTE: 1 << 0,
  WRITE_FILE: 1 << 1,
  READ_FILE: 1 << 2,
  READ_DIR: 1 << 3,
  REMOVE_DIR: 1 << 4,
  REMOVE_FILE: 1 << 5,
  MAKE_CHAR: 1 << 6,
  MAKE_DIR: 1 << 7,
  MAKE_REG: 1 << 8,
  MAKE_SOCK: 1 << 9,
  MAKE_FIFO: 1 << 10,
  MAKE_BLOCK: 1 << 11,
  MAKE_SYM: 1 << 12,
  /** ABI 2: link or rename into another directory. */
  REFER: 1 << 13,
  /** ABI 3: truncate(2), ftruncate and O_TRUNC. */
  TRUNCATE: 1 << 14,
  /** ABI 5: ioctl(2) on a character or block device. */
  IOCTL_DEV: 1 << 15,
} as const;

/** ABI 4: TCP by port. */
export const NET = { BIND_TCP: 1 << 0, CONNECT_TCP: 1 << 1 } as const;

/** ABI 6: what a domain cannot reach outside itself. */
export const SCOPE = { ABSTRACT_UNIX_SOCKET: 1 << 0, SIGNAL: 1 << 1 } as const;

export const RULE_PATH_BENEATH = 1;
export const RULE_NET_PORT = 2;
export const CREATE_RULESET_VERSION = 1 << 0;

/** Reading: the file-level rights that let a file's bytes out (listing a directory is READ_DIR, kept apart). */
export const READ = FS.READ_FILE | FS.EXECUTE;
/** Writing a file that exists: the only write rights a rule on a file may carry. */
export const WRITE_FILE_LEVEL = FS.WRITE_FILE | FS.TRUNCATE;
/**
 * Making and removing entries: rights of a directory, held by everything beneath it. Device nodes (MAKE_CHAR,
 * MAKE_BLOCK) are never granted: a disk's node made in temp would be a way around every other rule.
 */
export const WRITE_DIR_LEVEL =
  FS.REMOVE_DIR | FS.REMOVE_FILE | FS.MAKE_DIR | FS.MAKE_REG | FS.MAKE_SOCK | FS.MAKE_FIFO | FS.MAKE_SYM | FS.REFER;
export const WRITE = WRITE_FILE_LEVEL | WRITE_DIR_LEVEL;
/** Rights a rule on a regular file (not a directory) may carry. */
export const FILE_RIGHTS = FS.EXECUTE | FS.WRITE_FILE | FS.READ_FILE | FS.TRUNCATE | FS.IOCTL_DEV;

/** Every filesystem right an ABI knows. */
export function fsRightsOf(abi: number): number {
  let all = (1 << 13) - 1;
  if (abi >= 2) all |= FS.REFER;
  if (abi >= 3) all |= FS.TRUNCATE;
  if (abi >= 5) all |= FS.IOCTL_DEV;
  return abi >= 1 ? all : 0;
}

export function netRightsOf(abi: number): number {
  return abi >= 4 ? NET.BIND_TCP | NET.CONNECT_TCP : 0;
}

export function scopesOf(abi: number): number {
  return abi >= 6 ? SCOPE.ABSTRACT_UNIX_SOCKET | SCOPE.SIGNAL : 0;
}
