#!/usr/bin/env node
// The real agents, driven with polc as their hook, offline. Usage:
//   node tests/agents/run.mjs [AGENT...]       (default: every agent not marked opt-in;
//                                               POLC_AGENTS_OPTIN=1 adds the opt-in ones)
// Env: POLC_BIN (default target/debug/polc), POLC_AGENTS_CACHE (default ~/.cache/polc-agents),
//      POLC_AGENTS_JOBS (parallel agent runs, default 2).
// Prints one line per test, the matrix per agent (row × mode → ran or not), the facts, and a
// closing "N passed, N failed" line; exits 1 on a failure, on an unexpected skip, or when an
// agent tried to reach anything but 127.0.0.1.

import fs from "node:fs";
import path from "node:path";
import { startMock, startRefusingProxy } from "./lib/mock.mjs";
import { install, pins, polcBin, SUITE_DIR } from "./lib/util.mjs";

const t0 = Date.now();
const versions = pins();
const optin = process.env.POLC_AGENTS_OPTIN === "1";
const wanted = process.argv.slice(2).length
  ? process.argv.slice(2)
  : Object.keys(versions.agents).filter((a) => optin || !versions.agents[a].optin);

const notRun = Object.keys(versions.agents).filter((a) => !wanted.includes(a));
if (notRun.length) console.log(`# not run: ${notRun.join(", ")} (opt-in: POLC_AGENTS_OPTIN=1 or name them)`);

const results = { passed: 0, failed: 0, skipped: 0, failures: [], cells: {}, facts: [] };
const t = {
  pass(name) {
    results.passed++;
    console.log(`ok   ${name}`);
  },
  fail(name, why) {
    results.failed++;
    results.failures.push(`${name}: ${why}`);
    console.log(`FAIL ${name}: ${why}`);
  },
  cell(agent, row, mode, ran) {
    ((results.cells[agent] ||= {})[row] ||= {})[mode] = typeof ran === "string" ? ran : ran ? "ran" : "-";
  },
  fact(agent, what, value) {
    results.facts.push({ agent, what, value });
  },
};

const jobs = Math.max(1, Number(process.env.POLC_AGENTS_JOBS || 2));
async function pool(tasks) {
  let i = 0;
  const worker = async () => {
    while (i < tasks.length) {
      const k = i++;
      try {
        await tasks[k]();
      } catch (e) {
        t.fail(`task ${k}`, e.stack || String(e));
      }
    }
  };
  await Promise.all(Array.from({ length: Math.min(jobs, tasks.length) }, worker));
}

const polc = polcBin();
const mock = await startMock();
const proxy = await startRefusingProxy();
const ctx = { polc, mock, proxy, pool, versions };

for (const name of wanted) {
  const pin = versions.agents[name];
  if (!pin) {
    t.fail(name, "no such agent in versions.json");
    continue;
  }
  const a0 = Date.now();
  let inst;
  try {
    inst = install(name, pin);
  } catch (e) {
    skip(name, `cannot install ${pin.package}@${pin.version}: ${String(e.message).slice(0, 300)}`);
    continue;
  }
  console.log(
    `# ${name} ${pin.package}@${pin.version} (${inst.cached ? "cached" : "installed"} in ${Date.now() - a0} ms)`,
  );
  const mod = await import(path.join(SUITE_DIR, `${name}.mjs`));
  const why = mod.prepare ? await mod.prepare(ctx, inst.dir, pin) : null;
  if (why) {
    skip(name, why);
    continue;
  }
  const before = proxy.attempts.length;
  await mod.suite(ctx, t);
  const leaked = proxy.attempts.slice(before);
  if (leaked.length)
    t.fail(`${name} offline`, `tried to reach ${[...new Set(leaked.map((x) => x.target))].join(", ")}`);
  else t.pass(`${name} offline: no contact with anything but 127.0.0.1`);
  console.log(`# ${name} done in ${((Date.now() - a0) / 1000).toFixed(1)} s`);
}

function skip(name, why) {
  const expected = versions.agents[name]?.expectedSkip;
  if (expected) {
    results.skipped++;
    console.log(`skip ${name}: ${why} (expected: ${expected})`);
  } else {
    t.fail(`${name} skipped`, why);
  }
}

await mock.close();
await proxy.close();

for (const [agent, rows] of Object.entries(results.cells)) {
  const modes = [...new Set(Object.values(rows).flatMap((r) => Object.keys(r)))];
  console.log(`\n## ${agent}: row × mode → ran or not ("-")`);
  console.log(["row", ...modes].join(" | "));
  for (const [row, m] of Object.entries(rows)) console.log([row, ...modes.map((x) => m[x] ?? "")].join(" | "));
}
if (results.facts.length) {
  console.log("\n## facts");
  for (const f of results.facts) console.log(`${f.agent}: ${f.what}: ${f.value}`);
}
if (results.failures.length) {
  console.log("\n## failures");
  for (const f of results.failures) console.log(f);
}
const secs = ((Date.now() - t0) / 1000).toFixed(1);
console.log(`\nagent suite took ${secs} s`);
fs.mkdirSync(path.join(SUITE_DIR, "..", "..", "target"), { recursive: true });
fs.writeFileSync(
  path.join(SUITE_DIR, "..", "..", "target", "agents-results.json"),
  JSON.stringify({ ...results, secs }, null, 1),
);
console.log(`agents: ${results.passed} passed, ${results.failed} failed, ${results.skipped} skipped`);
process.exit(results.failed ? 1 : 0);
