// Claude Code: print mode (`-p`) with polc as the PreToolUse hook, in every permission mode,
// for every decision and every error; SDK stream-json mode for PermissionRequest.
//
// Offline: ANTHROPIC_BASE_URL points at the mock; CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC,
// DISABLE_AUTOUPDATER, DISABLE_TELEMETRY and DISABLE_ERROR_REPORTING are set; the one call
// these leave (the API-key metrics opt-out check at start) is answered from a fresh
// `metricsStatusCache` seeded in the throwaway ~/.claude.json.

import { spawn, spawnSync } from "node:child_process";
import fs from "node:fs";
import path from "node:path";
import { COMMAND, DENY_REASON, markerRan, offlineEnv, project, run, sh } from "./lib/util.mjs";
import { sessionJobs } from "./claude_session.mjs";

export const MODES = ["default", "acceptEdits", "bypassPermissions", "dontAsk", "plan", "auto"];

// Each row: how polc is wired and which command the model asks for. `expect(mode)` is whether
// the command may run: true/false is asserted; null records the fact without asserting.
// Every row whose polc answer is not allow must never run, in any mode.
export function rows(polc) {
  const hook = (...a) => sh(polc, "hook", ...a);
  return [
    {
      id: "deny",
      decision: "deny",
      layer: "user",
      cmd: hook("--host", "claude"),
      expect: () => false,
      reasonToModel: true,
    },
    { id: "ask", decision: "ask", layer: "user", cmd: hook("--host", "claude"), expect: () => false },
    {
      id: "allow-user",
      decision: "allow",
      layer: "user",
      cmd: hook("--host", "claude"),
      expect: (m) => (m === "plan" ? null : true),
    },
    {
      id: "allow-project",
      decision: "allow",
      layer: "project",
      cmd: hook("--host", "claude"),
      expect: () => true,
      modes: ["default", "bypassPermissions", "dontAsk"],
    },
    // An untrusted project table grants nothing: its allow is `default` (Claude's own flow).
    {
      id: "allow-untrusted",
      decision: "allow",
      layer: "untrusted",
      cmd: hook("--host", "claude"),
      expect: hostOwn,
      modes: ["default", "acceptEdits", "bypassPermissions"],
    },
    { id: "default", decision: "default", layer: "user", cmd: hook("--host", "claude"), expect: hostOwn },
    { id: "corrupt-table", decision: "allow", layer: "corrupt", cmd: hook("--host", "claude"), expect: () => false },
    {
      id: "bad-stdin",
      decision: "allow",
      layer: "user",
      cmd: `sh -c ${sh(`cat >/dev/null; printf '{not json' | ${hook("--host", "claude")}`)}`,
      expect: () => false,
    },
    { id: "unknown-host", decision: "allow", layer: "user", cmd: hook("--host", "nosuch"), expect: () => false },
    // The same answer as an unknown host (a usage error: exit 2, nothing on stdout).
    {
      id: "missing-host",
      decision: "allow",
      layer: "user",
      cmd: hook(),
      expect: () => false,
      modes: ["default", "bypassPermissions"],
    },
  ];
}

// What Claude Code itself does with a command no hook decided (facts, asserted where the
// mode's meaning is clear: print mode cannot prompt, so `default`/`dontAsk` never run it;
// `bypassPermissions` runs it).
function hostOwn(mode) {
  if (mode === "default" || mode === "dontAsk") return false;
  if (mode === "bypassPermissions") return true;
  return null;
}

export function settingsFor(cmd, event = "PreToolUse", extra = {}) {
  return {
    hooks: { [event]: [{ matcher: "Bash", hooks: [{ type: "command", command: cmd, ...extra }] }] },
  };
}

export function claudeEnv(ctx, base, p, extra = {}) {
  fs.writeFileSync(
    path.join(p.home, ".claude.json"),
    JSON.stringify({
      hasCompletedOnboarding: true,
      metricsStatusCache: { enabled: false, timestamp: Date.now() },
    }),
  );
  return offlineEnv(ctx.proxy.url, {
    HOME: p.home,
    ANTHROPIC_BASE_URL: base,
    ANTHROPIC_API_KEY: "sk-ant-mock-offline",
    CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC: "1",
    DISABLE_AUTOUPDATER: "1",
    DISABLE_TELEMETRY: "1",
    DISABLE_ERROR_REPORTING: "1",
    CLAUDE_CODE_DISABLE_OFFICIAL_MARKETPLACE_AUTOINSTALL: "1",
    // bypassPermissions refuses to start as root outside a sandbox; this is one.
    IS_SANDBOX: "1",
    ...p.polcEnv,
    ...extra,
  });
}

// One print-mode run: returns {ran, r, sc, p}.
export async function printRun(ctx, { id, decision, layer, cmd, mode, hookExtra, env = {}, settings }) {
  const p = project(ctx.polc, layer);
  const { sc, base } = ctx.mock.scenario(`claude-${id}-${mode}`, { command: COMMAND[decision] });
  const sfile = path.join(p.home, "polc-hook-settings.json");
  fs.writeFileSync(sfile, JSON.stringify(settings || settingsFor(cmd, "PreToolUse", hookExtra)));
  const r = await run(
    "node",
    [
      ctx.claudeCli,
      "-p",
      "run the command",
      "--settings",
      sfile,
      "--permission-mode",
      mode,
      "--output-format",
      "json",
      "--model",
      "claude-sonnet-4-5",
    ],
    { cwd: p.root, env: claudeEnv(ctx, base, p, env), timeoutMs: 90_000 },
  );
  return { ran: markerRan(p.root, decision), r, sc, p };
}

export async function suite(ctx, t) {
  const polc = ctx.polc;
  // The long, serial checks first, so the matrix fills the gaps.
  const jobs = [...facts(ctx, t), ...permissionRequest(ctx, t), ...answerFacts(ctx, t), ...sessionJobs(ctx, t)];
  for (const row of rows(polc)) {
    for (const mode of row.modes || MODES) {
      jobs.push(async () => {
        const { ran, r, sc } = await printRun(ctx, { ...row, mode });
        const want = row.expect(mode);
        const detail = `exit ${r.code}; tool calls ${sc.toolCalls}; results ${JSON.stringify(sc.toolResults).slice(0, 400)}; stderr ${r.stderr.slice(0, 300)}`;
        t.cell("claude", row.id, mode, ran);
        if (sc.toolCalls !== 1)
          return t.fail(`claude ${row.id} ${mode}`, `the model's tool call never happened (${detail})`);
        if (want !== null && ran !== want)
          return t.fail(`claude ${row.id} ${mode}`, `ran=${ran}, expected ${want} (${detail})`);
        if (row.reasonToModel && !sc.toolResults.some((x) => x.text.includes(DENY_REASON)))
          return t.fail(`claude ${row.id} ${mode}`, `polc's reason did not reach the model (${detail})`);
        t.pass(`claude ${row.id} ${mode}${want === null ? " (fact recorded)" : ""}`);
      });
    }
  }
  // `polc hook --print-config --host claude` pasted unchanged as the settings.
  const pasted = JSON.parse(
    spawnSync(polc, ["hook", "--print-config", "--host", "claude"], { encoding: "utf8" }).stdout,
  );
  for (const [decision, mode, want] of [
    ["deny", "bypassPermissions", false],
    ["ask", "bypassPermissions", false],
    ["allow", "default", true],
  ]) {
    jobs.push(
      label("print-config", async () => {
        const { ran, r, sc } = await printRun(ctx, {
          id: `print-config-${decision}`,
          decision,
          layer: "user",
          mode,
          settings: pasted,
        });
        t.cell("claude", `print-config ${decision}`, mode, ran);
        if (sc.toolCalls !== 1 || ran !== want)
          t.fail(
            `claude print-config ${decision} ${mode}`,
            `ran=${ran}, expected ${want} (exit ${r.code}, ${r.stderr.slice(0, 200)})`,
          );
        else t.pass(`claude print-config ${decision} ${mode}`);
      }),
    );
  }
  const only = process.env.POLC_AGENTS_ONLY ? new RegExp(process.env.POLC_AGENTS_ONLY) : null;
  await ctx.pool(only ? jobs.filter((j) => only.test(j.label || "")) : jobs);
}

// Facts other issues depend on, each a test.
function facts(ctx, t) {
  const polc = ctx.polc;
  return [
    label("facts", async () => {
      // A missing hook binary: the shell exits 127, a non-blocking error: the call proceeds.
      {
        const { ran, r } = await printRun(ctx, {
          id: "missing-binary",
          decision: "deny",
          layer: "user",
          mode: "bypassPermissions",
          cmd: "/nonexistent/polc hook --host claude",
        });
        t.fact(
          "claude",
          "missing hook binary (exit 127) in bypassPermissions",
          ran ? "the command ran (fail open)" : "the command did not run",
        );
        ran
          ? t.pass("claude fact: exit 127 is a non-blocking error (fails open)")
          : t.fail("claude fact: exit 127", `expected fail-open, got not run: ${r.stderr.slice(0, 200)}`);
      }
      // A hook that outlives its timeout.
      {
        const { ran } = await printRun(ctx, {
          id: "hook-timeout",
          decision: "deny",
          layer: "user",
          mode: "bypassPermissions",
          cmd: "sleep 20",
          hookExtra: { timeout: 2 },
        });
        t.fact(
          "claude",
          "hook past its timeout in bypassPermissions",
          ran ? "the command ran (fail open)" : "the command did not run",
        );
        t.pass(`claude fact: hook timeout → ${ran ? "ran" : "not run"}`);
      }
    }),
    label("facts", async () => {
      // A repository's settings `env` reaches the hook and can override CLAUDE_PROJECT_DIR.
      {
        const probe = `sh -c ${sh(`env > "$POLC_SUITE_ENV_OUT"; cat >/dev/null`)}`;
        const p0 = project(polc, "none");
        const out = path.join(p0.home, "hook-env.txt");
        fs.mkdirSync(path.join(p0.root, ".claude"), { recursive: true });
        fs.writeFileSync(
          path.join(p0.root, ".claude", "settings.json"),
          JSON.stringify({ env: { CLAUDE_PROJECT_DIR: "/tmp/forged-project", POLC_SUITE_FROM_REPO: "1" } }),
        );
        const { sc, base } = ctx.mock.scenario("claude-env-probe", { command: COMMAND.default });
        const sfile = path.join(p0.home, "s.json");
        fs.writeFileSync(sfile, JSON.stringify(settingsFor(probe)));
        await run(
          "node",
          [ctx.claudeCli, "-p", "go", "--settings", sfile, "--permission-mode", "dontAsk", "--output-format", "json"],
          {
            cwd: p0.root,
            env: claudeEnv(ctx, base, p0, { POLC_SUITE_ENV_OUT: out }),
            timeoutMs: 90_000,
          },
        );
        const text = fs.existsSync(out) ? fs.readFileSync(out, "utf8") : "";
        const repoEnv = /^POLC_SUITE_FROM_REPO=1$/m.test(text);
        const pd = (/^CLAUDE_PROJECT_DIR=(.*)$/m.exec(text) || [])[1];
        t.fact("claude", "a repository's .claude/settings.json `env` reaches the hook", String(repoEnv));
        t.fact("claude", "CLAUDE_PROJECT_DIR seen by the hook when the repository sets it", pd ?? "(unset)");
        text
          ? t.pass("claude fact: hook environment recorded")
          : t.fail("claude fact: hook env", `the probe hook never ran (tool calls ${sc.toolCalls})`);
      }
    }),
  ];
}

function label(name, f) {
  f.label = name;
  return f;
}

// Answers polc does not give today, written by a stand-in hook, to record how Claude Code
// reads them (the session and onboarding issues depend on these facts).
function answerFacts(ctx, t) {
  const polc = ctx.polc;
  const jobs = [];
  const fake = (json) => `sh -c ${sh(`cat >/dev/null; printf '%s' ${sh(JSON.stringify(json))}`)}`;
  // `continue: false` with a deny: does the turn end (no further model request)?
  jobs.push(
    label("answers", async () => {
      const { ran, sc } = await printRun(ctx, {
        id: "continue-false",
        decision: "default",
        layer: "user",
        mode: "bypassPermissions",
        cmd: fake({
          continue: false,
          stopReason: "polc-agent-suite: stop",
          hookSpecificOutput: {
            hookEventName: "PreToolUse",
            permissionDecision: "deny",
            permissionDecisionReason: "stop",
          },
        }),
      });
      const after = sc.requests.filter((q) => /\/messages$/.test(q.path) && (q.body.tools || []).length).length;
      t.fact(
        "claude",
        "`continue: false` (with a deny) in bypassPermissions",
        `${ran ? "ran" : "not run"}; ${after === 1 ? "the turn ended" : "the turn went on (the model got the result and was asked again)"}`,
      );
      ran
        ? t.fail("claude fact: continue:false", "the command ran")
        : t.pass(`claude fact: continue:false → ${after} model request(s)`);
    }),
  );
  // `updatedInput` with allow: does the rewrite survive, per mode? polc offers a rewrite
  // only in the modes where it did (src/session/rewrite.rs `CLAUDE_REWRITE_MODES`).
  for (const mode of MODES)
    jobs.push(
      label("answers", async () => {
        const p = project(polc, "user");
        const { sc, base } = ctx.mock.scenario(`claude-updated-input-${mode}`, { command: COMMAND.default });
        const sfile = path.join(p.home, "s.json");
        fs.writeFileSync(
          sfile,
          JSON.stringify(
            settingsFor(
              fake({
                hookSpecificOutput: {
                  hookEventName: "PreToolUse",
                  permissionDecision: "allow",
                  permissionDecisionReason: "suite",
                  updatedInput: { command: "touch rewritten-marker" },
                },
              }),
            ),
          ),
        );
        await run(
          "node",
          [ctx.claudeCli, "-p", "go", "--settings", sfile, "--permission-mode", mode, "--output-format", "json"],
          {
            cwd: p.root,
            env: claudeEnv(ctx, base, p),
            timeoutMs: 90_000,
          },
        );
        const rewritten = fs.existsSync(path.join(p.root, "rewritten-marker"));
        const original = fs.existsSync(path.join(p.root, "default-marker"));
        t.fact(
          "claude",
          `allow + updatedInput in ${mode}`,
          rewritten
            ? "the rewritten command ran"
            : original
              ? "the original command ran (rewrite dropped)"
              : "nothing ran",
        );
        // polc offers rewrites in exactly the modes where the rewritten command ran.
        sc.toolCalls === 1 && rewritten && !original
          ? t.pass(`claude fact: updatedInput in ${mode}: the rewritten command ran`)
          : t.fail(
              `claude fact: updatedInput ${mode}`,
              `tool calls ${sc.toolCalls}, rewritten ran ${rewritten}, original ran ${original}: update CLAUDE_REWRITE_MODES (src/session/rewrite.rs)`,
            );
      }),
    );
  // Hooks edited mid-session: the first call's hook rewrites the settings file so that the
  // second call would be denied. Two tool calls in one session.
  jobs.push(
    label("answers", async () => {
      const p = project(polc, "user");
      const sfile = path.join(p.home, "s.json");
      const later = JSON.stringify(settingsFor(sh(polc, "hook", "--host", "claude")));
      // First hook: no opinion, and it swaps the settings for polc (which denies deny-marker).
      const first = `sh -c ${sh(`cat >/dev/null; printf '%s' ${sh(later)} > ${sh(sfile)}`)}`;
      fs.writeFileSync(sfile, JSON.stringify(settingsFor(first)));
      const { sc, base } = ctx.mock.scenario("claude-midsession", { commands: [COMMAND.default, COMMAND.deny] });
      await run(
        "node",
        [
          ctx.claudeCli,
          "-p",
          "go",
          "--settings",
          sfile,
          "--permission-mode",
          "bypassPermissions",
          "--output-format",
          "json",
        ],
        {
          cwd: p.root,
          env: claudeEnv(ctx, base, p),
          timeoutMs: 90_000,
        },
      );
      const second = fs.existsSync(path.join(p.root, "deny-marker"));
      t.fact(
        "claude",
        "a --settings hook edited mid-session",
        second ? "ignored: the session kept its first hooks" : "takes effect on the next call",
      );
      sc.toolCalls === 2
        ? t.pass(`claude fact: mid-session hook edit → ${second ? "ignored" : "applied"}`)
        : t.fail("claude fact: mid-session", `tool calls ${sc.toolCalls}`);
    }),
  );
  return jobs;
}

// SDK (stream-json) mode: PermissionRequest fires where Claude Code would prompt. Only
// PermissionRequest is wired, so polc's answer to it decides.
function permissionRequest(ctx, t) {
  const polc = ctx.polc;
  const hook = (...a) => sh(polc, "hook", "--event", "permission-request", ...a);
  const cases = [
    { id: "deny", decision: "deny", layer: "user", cmd: hook("--host", "claude"), want: false, prompted: 0 },
    { id: "allow", decision: "allow", layer: "user", cmd: hook("--host", "claude"), want: true, prompted: 0 },
    // ask and default: no answer, so the prompt reaches the SDK's permission prompt tool
    // (the suite plays the person and says no).
    { id: "ask", decision: "ask", layer: "user", cmd: hook("--host", "claude"), want: false, prompted: 1 },
    { id: "default", decision: "default", layer: "user", cmd: hook("--host", "claude"), want: false, prompted: 1 },
    {
      id: "corrupt-table",
      decision: "allow",
      layer: "corrupt",
      cmd: hook("--host", "claude"),
      want: false,
      prompted: 0,
    },
    { id: "unknown-host", decision: "allow", layer: "user", cmd: hook("--host", "nosuch"), want: false },
    {
      id: "bad-stdin",
      decision: "allow",
      layer: "user",
      want: false,
      cmd: `sh -c ${sh(`cat >/dev/null; printf '{not json' | ${hook("--host", "claude")}`)}`,
      prompted: 0,
    },
  ];
  const jobs = [
    label("permreq", async () => {
      // A deny with `interrupt: true`: does the turn end (no further model request)?
      const p = project(polc, "none");
      const { sc, base } = ctx.mock.scenario("claude-permreq-interrupt", { command: COMMAND.deny });
      const answer = {
        hookSpecificOutput: {
          hookEventName: "PermissionRequest",
          decision: { behavior: "deny", message: "polc-agent-suite: stop", interrupt: true },
        },
      };
      const sfile = path.join(p.home, "s.json");
      fs.writeFileSync(
        sfile,
        JSON.stringify(
          settingsFor(`sh -c ${sh(`cat >/dev/null; printf '%s' ${sh(JSON.stringify(answer))}`)}`, "PermissionRequest"),
        ),
      );
      await sdkRun(ctx.claudeCli, sfile, { cwd: p.root, env: claudeEnv(ctx, base, p) });
      const asked = sc.requests.filter((q) => /\/messages$/.test(q.path) && (q.body.tools || []).length).length;
      const ran = fs.existsSync(path.join(p.root, "deny-marker"));
      t.fact(
        "claude",
        "PermissionRequest deny + `interrupt: true`",
        `${ran ? "ran" : "not run"}; ${asked === 1 ? "the turn ended" : "the turn went on (the model was asked again)"}`,
      );
      !ran && sc.toolCalls === 1
        ? t.pass(`claude fact: interrupt → ${asked === 1 ? "turn ended" : "turn went on"}`)
        : t.fail("claude fact: interrupt", `ran=${ran}, tool calls ${sc.toolCalls}`);
    }),
    label("permreq", async () => {
      // An allow that also stores a permission rule: what lands in the settings file?
      const p = project(polc, "none");
      const { sc, base } = ctx.mock.scenario("claude-permreq-updated-permissions", { command: COMMAND.allow });
      const answer = {
        hookSpecificOutput: {
          hookEventName: "PermissionRequest",
          decision: {
            behavior: "allow",
            updatedPermissions: [
              {
                type: "addRules",
                rules: [{ toolName: "Bash", ruleContent: COMMAND.allow }],
                behavior: "allow",
                destination: "localSettings",
              },
            ],
          },
        },
      };
      const sfile = path.join(p.home, "s.json");
      fs.writeFileSync(
        sfile,
        JSON.stringify(
          settingsFor(`sh -c ${sh(`cat >/dev/null; printf '%s' ${sh(JSON.stringify(answer))}`)}`, "PermissionRequest"),
        ),
      );
      await sdkRun(ctx.claudeCli, sfile, { cwd: p.root, env: claudeEnv(ctx, base, p) });
      const local = path.join(p.root, ".claude", "settings.local.json");
      let stored = "(no settings.local.json)";
      try {
        stored = JSON.stringify(JSON.parse(fs.readFileSync(local, "utf8")).permissions?.allow ?? null);
      } catch {}
      t.fact(
        "claude",
        `PermissionRequest allow + updatedPermissions addRules "${COMMAND.allow}" (localSettings) stores`,
        stored,
      );
      const exact = stored === JSON.stringify([`Bash(${COMMAND.allow})`]);
      sc.toolCalls === 1 && exact
        ? t.pass("claude fact: updatedPermissions stores exactly one command")
        : t.fail("claude fact: updatedPermissions", `stored ${stored} (tool calls ${sc.toolCalls})`);
    }),
  ];
  return jobs.concat(
    cases.map((c) =>
      label("permreq", async () => {
        const p = project(polc, c.layer);
        const { sc, base } = ctx.mock.scenario(`claude-permreq-${c.id}`, { command: COMMAND[c.decision] });
        const sfile = path.join(p.home, "s.json");
        fs.writeFileSync(sfile, JSON.stringify(settingsFor(c.cmd, "PermissionRequest")));
        const r = await sdkRun(ctx.claudeCli, sfile, { cwd: p.root, env: claudeEnv(ctx, base, p) });
        const ran = markerRan(p.root, c.decision);
        t.cell("claude-permreq", c.id, "default (sdk)", ran);
        if (c.prompted !== undefined && r.prompts !== c.prompted)
          t.fail(`claude permreq ${c.id}`, `a person was asked ${r.prompts} times, expected ${c.prompted}`);
        else if (sc.toolCalls !== 1)
          t.fail(`claude permreq ${c.id}`, `no tool call (exit ${r.code}) ${r.stderr.slice(0, 300)}`);
        else if (ran !== c.want)
          t.fail(
            `claude permreq ${c.id}`,
            `ran=${ran}, expected ${c.want}; results ${JSON.stringify(sc.toolResults).slice(0, 300)}`,
          );
        else t.pass(`claude permreq ${c.id}`);
      }),
    ),
  );
}

export function prepare(ctx, dir) {
  ctx.claudeCli = path.join(dir, "node_modules", "@anthropic-ai", "claude-code", "cli.js");
  return fs.existsSync(ctx.claudeCli) ? null : `no cli.js in ${dir}`;
}

// SDK mode: stream-json in and out, the permission prompt over stdio. Every prompt that
// reaches the "person" is answered no; stdin closes when the result arrives.
export function sdkRun(cli, sfile, { cwd, env, timeoutMs = 90_000 }) {
  return new Promise((resolve) => {
    const args = [
      "-p",
      "--input-format",
      "stream-json",
      "--output-format",
      "stream-json",
      "--verbose",
      "--permission-prompt-tool",
      "stdio",
      "--settings",
      sfile,
      "--permission-mode",
      "default",
    ];
    const p = spawn("node", [cli, ...args], { cwd, env, stdio: ["pipe", "pipe", "pipe"], detached: true });
    let buf = "",
      stderr = "",
      prompts = 0;
    const cancelled = new Set();
    const timer = setTimeout(() => {
      try {
        process.kill(-p.pid, "SIGKILL");
      } catch {}
    }, timeoutMs);
    p.stdin.on("error", () => {});
    p.stdin.write(JSON.stringify({ type: "user", message: { role: "user", content: "run the command" } }) + "\n");
    p.stderr.on("data", (d) => (stderr += d));
    p.stdout.on("data", (d) => {
      buf += d;
      let i;
      while ((i = buf.indexOf("\n")) >= 0) {
        const line = buf.slice(0, i);
        buf = buf.slice(i + 1);
        let m;
        try {
          m = JSON.parse(line);
        } catch {
          continue;
        }
        if (m.type === "control_request" && m.request?.subtype === "can_use_tool") {
          // Claude Code asks the hook and the prompt tool at once; the person answers
          // after the hook has had its time, and only if the prompt was not withdrawn.
          const id = m.request_id;
          setTimeout(() => {
            if (cancelled.has(id) || p.exitCode !== null) return;
            prompts++;
            p.stdin.write(
              JSON.stringify({
                type: "control_response",
                response: {
                  subtype: "success",
                  request_id: id,
                  response: { behavior: "deny", message: "polc-agent-suite: the person said no" },
                },
              }) + "\n",
            );
          }, 6000);
        }
        if (m.type === "control_cancel_request") cancelled.add(m.request_id);
        if (m.type === "result") p.stdin.end();
      }
    });
    p.on("close", (code) => {
      clearTimeout(timer);
      resolve({ code, stderr, prompts });
    });
  });
}
