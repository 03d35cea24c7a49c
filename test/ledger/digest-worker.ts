// Spawned by the key test: prints this machine's digest of `ls`, making the key if it is the first to need it.
import { createArgsDigest } from "../../src/ledger/digest.ts";

const [keys] = process.argv.slice(2);
if (!keys) throw new Error("usage: digest-worker <keys dir>");
process.stdout.write(`${createArgsDigest({ keys })("ls")}\n`);
