// Install pinned agents into the cache without running them (tests/agents/README.md):
//   node tests/agents/install.mjs codex gemini
// .ci/run calls it before `cargo test`, so the Codex and Gemini differentials of `polc import`
// (tests/import_*_diff.rs) find the agents' own decision code on a fresh machine.
import { install, pins } from "./lib/util.mjs";

const versions = pins();
let failed = 0;
for (const name of process.argv.slice(2)) {
  const pin = versions.agents[name];
  if (!pin) {
    console.error(`agents: no such agent in versions.json: ${name}`);
    failed++;
    continue;
  }
  try {
    const r = install(name, pin);
    console.log(`agents: ${name} ${pin.package}@${pin.version} ${r.cached ? "cached" : "installed"}`);
  } catch (e) {
    console.error(`agents: cannot install ${pin.package}@${pin.version}: ${String(e.message).slice(0, 300)}`);
    failed++;
  }
}
process.exit(failed ? 1 : 0);
