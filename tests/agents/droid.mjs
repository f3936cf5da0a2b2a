// Factory Droid (`droid`, opt-in): `droid exec` at each autonomy level against the mock
// (a bring-your-own-key custom model in ~/.factory/config.json, provider anthropic, base_url =
// the mock), polc in ~/.factory/settings.json exactly as `polc hook --print-config --host
// droid` prints it.
//
// Offline: FACTORY_AIRGAP_ENABLED=1 (no Factory API, no telemetry, no feature flags) and
// FACTORY_DROID_AUTO_UPDATE_ENABLED=false; no account is needed with a custom model.

import { spawnSync } from "node:child_process";
import fs from "node:fs";
import path from "node:path";
import { COMMAND, DENY_REASON, markerRan, offlineEnv, project, run, sh } from "./lib/util.mjs";

export const MODES = {
  default: [],
  "auto-low": ["--auto", "low"],
  "auto-medium": ["--auto", "medium"],
  "auto-high": ["--auto", "high"],
};

export function prepare(ctx, dir) {
  ctx.droidBin = path.join(dir, "node_modules", "@factory", "cli-linux-x64", "bin", "droid");
  return fs.existsSync(ctx.droidBin) ? null : `no droid binary in ${dir} (linux-x64 only)`;
}

function printConfig(polc) {
  const r = spawnSync(polc, ["hook", "--print-config", "--host", "droid"], { encoding: "utf8" });
  if (r.status !== 0) throw new Error(`--print-config failed: ${r.stderr}`);
  return JSON.parse(r.stdout);
}

function settingsFor(cmd) {
  return { hooks: { PreToolUse: [{ matcher: "*", hooks: [{ type: "command", command: cmd }] }] } };
}

async function droidRun(ctx, { id, decision, layer, settings, mode = "default", log }) {
  const p = project(ctx.polc, layer);
  const { sc, base } = ctx.mock.scenario(`droid-${id}-${mode}`, {
    command: COMMAND[decision],
    tool: "Execute",
    // Droid's Execute tool requires the model to classify the command's risk.
    extraInput: { riskLevelReason: "it creates one empty file in the project", riskLevel: "low" },
  });
  const fdir = path.join(p.home, ".factory");
  fs.mkdirSync(fdir, { recursive: true });
  fs.writeFileSync(
    path.join(fdir, "config.json"),
    JSON.stringify({
      custom_models: [
        {
          model_display_name: "mock",
          model: "claude-sonnet-4-5",
          base_url: base,
          api_key: "mock",
          provider: "anthropic",
        },
      ],
    }),
  );
  fs.writeFileSync(path.join(fdir, "settings.json"), JSON.stringify(settings));
  const env = offlineEnv(ctx.proxy.url, {
    HOME: p.home,
    ...p.polcEnv,
    POLC_SUITE_HOOK_LOG: log,
    FACTORY_AIRGAP_ENABLED: "1",
    FACTORY_DROID_AUTO_UPDATE_ENABLED: "false",
  });
  const r = await run(ctx.droidBin, ["exec", "--model", "custom:mock-0", ...MODES[mode], "run the command"], {
    cwd: p.root,
    env,
    timeoutMs: 90_000,
  });
  return { ran: markerRan(p.root, decision), r, sc, p };
}

export async function suite(ctx, t) {
  const polc = ctx.polc;
  const pasted = printConfig(polc);
  const hook = (...a) => settingsFor(sh(polc, "hook", ...a));
  const rows = [
    { id: "deny", decision: "deny", layer: "user", settings: pasted, want: false, reasonToModel: true },
    // Droid runs what a hook asks about (fact below): polc sends it as an approval-needed deny.
    { id: "ask", decision: "ask", layer: "user", settings: pasted, want: false },
    { id: "allow-user", decision: "allow", layer: "user", settings: pasted, want: true },
    { id: "allow-project", decision: "allow", layer: "project", settings: pasted, want: true },
    { id: "default", decision: "default", layer: "user", settings: pasted, want: null },
    { id: "corrupt-table", decision: "allow", layer: "corrupt", settings: pasted, want: false },
    {
      id: "bad-stdin",
      decision: "allow",
      layer: "user",
      want: false,
      settings: settingsFor(
        `sh -c ${sh(`cat >/dev/null; printf '{not json' | ${sh(polc, "hook", "--host", "droid")}`)}`,
      ),
    },
    { id: "unknown-host", decision: "allow", layer: "user", settings: hook("--host", "nosuch"), want: false },
    { id: "missing-host", decision: "allow", layer: "user", settings: hook(), want: false },
  ];
  const jobs = [];
  for (const row of rows) {
    for (const mode of Object.keys(MODES)) {
      jobs.push(async () => {
        const { ran, r, sc } = await droidRun(ctx, { ...row, mode });
        const name = `droid ${row.id} ${mode}`;
        const detail = `exit ${r.code}; tool calls ${sc.toolCalls}; results ${JSON.stringify(sc.toolResults).slice(0, 300)}; stderr ${r.stderr.slice(-300)}`;
        t.cell("droid", row.id, mode, ran);
        if (sc.toolCalls !== 1) return t.fail(name, `the model's tool call never happened (${detail})`);
        if (row.want !== null && ran !== row.want) return t.fail(name, `ran=${ran}, expected ${row.want} (${detail})`);
        if (row.reasonToModel && !sc.toolResults.some((x) => x.text.includes(DENY_REASON)))
          return t.fail(name, `polc's reason did not reach the model (${detail})`);
        t.pass(`${name}${row.want === null ? " (fact recorded)" : ""}`);
      });
    }
  }
  // Facts: what each level sends as permission_mode, and what a raw `ask` does there.
  for (const mode of Object.keys(MODES)) {
    jobs.push(async () => {
      const p0 = project(polc, "none");
      const log = path.join(p0.home, "hook-input.json");
      const probe = settingsFor(
        `sh -c ${sh(`cat > "$POLC_SUITE_HOOK_LOG"; printf '%s' ${sh(JSON.stringify({ hookSpecificOutput: { hookEventName: "PreToolUse", permissionDecision: "ask", permissionDecisionReason: "suite: raw ask" } }))}`)}`,
      );
      const { ran } = await droidRun(ctx, {
        id: "raw-ask",
        decision: "ask",
        layer: "none",
        settings: probe,
        mode,
        log,
      });
      let pm = "(hook not run)";
      try {
        pm = JSON.parse(fs.readFileSync(log, "utf8")).permission_mode ?? "(none)";
      } catch {}
      t.fact(
        "droid",
        `droid exec ${MODES[mode].join(" ") || "(no --auto)"}`,
        `permission_mode=${pm}; a hook's raw "ask" → ${ran ? "the command ran" : "not run"}`,
      );
      pm.startsWith("(")
        ? t.fail(`droid fact ${mode}`, "the probe hook never ran")
        : t.pass(`droid fact: ${mode} sends ${pm}, raw ask → ${ran ? "ran" : "not run"}`);
    });
  }
  jobs.push(async () => {
    const { ran } = await droidRun(ctx, {
      id: "missing-binary",
      decision: "deny",
      layer: "user",
      settings: settingsFor("/nonexistent/polc hook --host droid"),
      mode: "auto-high",
    });
    t.fact(
      "droid",
      "missing hook binary (exit 127) at --auto high",
      ran ? "the command ran (fail open)" : "the command did not run",
    );
    t.pass(`droid fact: exit 127 → ${ran ? "ran" : "not run"}`);
  });
  await ctx.pool(jobs);
}
