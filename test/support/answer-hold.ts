// A second process answering a hold, for the first-answer-wins test.
import { answerHold } from "../../src/state/pending.ts";

const [dir, id, by, grant] = process.argv.slice(2);
if (!dir || !id || !by) process.exit(2);
const r = answerHold(dir, id, { by, grant: grant === "yes", nowMs: Date.now() });
console.log(r?.outcome ?? "missing");
