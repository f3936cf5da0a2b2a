// Drives Claude Code's own permission check (the pinned @anthropic-ai/claude-code package,
// installed outside the repository by install.sh) on tool calls, for the differential test.
//
// The package ships one bundled ES module (cli.js) whose last statement starts the CLI.
// This harness writes a sibling copy, cli-harness.mjs, in the package's own folder (never in
// this repository) with that last statement replaced by a line that runs the lazy module
// initialisers of the tools and of the permission check and hands them to us on
// `globalThis`. The bundle's internal names change with every release: they are found here
// by the strings and shapes around them, and the version is pinned in ./VERSION.
//
// stdin: JSON {"cases": [{"id", "allow": [...], "deny": [...], "ask": [...],
//                         "calls": [{"tool": "Bash", "input": {"command": "..."}}]}],
//               "validate": ["Bash(sudo :* )", ...]}
// stdout: JSON {"results": [{"id", "call", "behavior", "reason"}],
//               "validate": [{"rule", "valid", "error"}], "settings_keys": {...}}
import fs from "node:fs";
import path from "node:path";
import { pathToFileURL } from "node:url";

const pkg = process.argv[2];
if (!pkg) throw new Error("usage: node harness.mjs <claude-code package folder>");
const src = fs.readFileSync(path.join(pkg, "cli.js"), "utf8");

function need(re, what) {
  const m = re.exec(src);
  if (!m) throw new Error(`cannot find ${what} in cli.js`);
  return m;
}
// The tool-permission check: the async function that asks the tool-wide deny and ask rules,
// then the tool's own checkPermissions, then the mode and the tool-wide allow rules.
const check = need(
  /async function ([\w$]+)\(q,K,_\)\{if\(_\.abortController\.signal\.aborted\)throw new [\w$]+;let z=_\.getAppState\(\),Y=[\w$]+\(z\.toolPermissionContext,q\)/,
  "the permission check",
)[1];
// Rule validation (Claude's settings validator for one rule string).
const validate = need(
  /function ([\w$]+)\(q\)\{if\(!q\|\|q\.trim\(\)===""\)return\{valid:!1,error:"Permission rule cannot be empty"\}/,
  "the rule validator",
)[1];
// The empty permission context.
const emptyCtx = need(
  /var ([\w$]+)=\(\)=>\(\{mode:"default",additionalWorkingDirectories:new Map,alwaysAllowRules:\{\},/,
  "the empty permission context",
)[1];
// The settings schema: a function returning the zod object with `$schema` first.
const settings = need(
  /function ([\w$]+)\(q\)\{return [\w$]+\.object\(\{\$schema:/,
  "the settings schema",
)[1];
// The settings features built into this release (the schema's second argument).
const features = need(
  /function ([\w$]+)\(\)\{return [\w$]+\.filter\(\(q\)=>[\w$]+\[q\]\.buildGate\(\)\)\}/,
  "the settings feature list",
)[1];
// Reading the user's configuration is refused until the CLI enables it at start-up.
const enableConfigs = need(/enableConfigs:\(\)=>([\w$]+)/, "enableConfigs")[1];
// Every tool object `X=Iq({name:...` with the lazy initialiser that assigns it.
const tools = [];
for (const m of src.matchAll(/([\w$]+)=[\w$]+\(\{name:[\w$"]+,/g)) {
  const k = src.lastIndexOf("=L(()=>{", m.index);
  const v = src.lastIndexOf("var ", k);
  if (k < 0 || v < 0) continue;
  const init = src.slice(v + 4, k);
  if (!/^[\w$]+$/.test(init)) continue;
  tools.push([m[1], init]);
}
// The function that defines the permission check is initialised by the module holding it.
const initOf = (name) => {
  const i = src.indexOf(`async function ${name}(`);
  const k = src.indexOf("=L(()=>{", i);
  const v = src.lastIndexOf("var ", k);
  return src.slice(v + 4, k);
};
const checkInit = initOf(check);

let body = src.replace(/^#!.*\n/, "").trimEnd();
// The bundle ends with `}NAME();`: the call that starts the CLI.
const startCall = /\}([\w$]+\(\);)$/.exec(body);
if (!startCall) throw new Error("cannot find the CLI's start call at the end of cli.js");
const last = body.length - startCall[1].length - 1;
const toolList = tools.map(([t, i]) => `(()=>{try{${i}();return ${t}}catch(e){return null}})()`).join(",");
body =
  body.slice(0, last + 1) +
  `${checkInit}();${enableConfigs}();globalThis.__polc_cc={check:${check},validate:${validate},emptyCtx:${emptyCtx},settings:${settings},features:${features},tools:[${toolList}]};`;
const out = path.join(pkg, "cli-harness.mjs");
if (!fs.existsSync(out) || fs.readFileSync(out, "utf8") !== body) fs.writeFileSync(out, body);

// Quiet the bundle's own logging.
console.log = () => {};
console.warn = () => {};
console.error = () => {};
await import(pathToFileURL(out).href);
const cc = globalThis.__polc_cc;
const byName = new Map();
for (const t of cc.tools) if (t && typeof t.name === "string" && !byName.has(t.name)) byName.set(t.name, t);

// stdin as a stream (a synchronous read of a non-blocking pipe fails with EAGAIN).
const chunks = [];
for await (const c of process.stdin) chunks.push(c);
const input = JSON.parse(Buffer.concat(chunks).toString("utf8"));
const results = [];
for (const c of input.cases ?? []) {
  const ctx = {
    ...cc.emptyCtx(),
    alwaysAllowRules: { localSettings: c.allow ?? [] },
    alwaysDenyRules: { localSettings: c.deny ?? [] },
    alwaysAskRules: { localSettings: c.ask ?? [] },
  };
  const app = { toolPermissionContext: ctx };
  for (const [i, call] of (c.calls ?? []).entries()) {
    const tool = byName.get(call.tool);
    if (!tool) throw new Error(`no tool ${call.tool} in this release`);
    const ac = new AbortController();
    const tc = {
      getAppState: () => app,
      abortController: ac,
      options: { isNonInteractiveSession: true, tools: [...byName.values()] },
      messages: [],
      readFileState: new Map(),
    };
    let r;
    try {
      r = await cc.check(tool, call.input, tc);
    } catch (e) {
      r = { behavior: "error", decisionReason: { type: "error", reason: String(e) } };
    }
    const d = r.decisionReason ?? {};
    let reason = d.type ?? "";
    if (d.type === "rule") reason = `rule ${d.rule.ruleBehavior} ${d.rule.ruleValue.toolName}(${d.rule.ruleValue.ruleContent ?? ""})`;
    else if (d.type === "other" || d.type === "safetyCheck") reason = `${d.type}: ${d.bashMissKind ?? ""}: ${d.reason}`;
    else if (d.type === "subcommandResults") {
      const parts = [];
      let own = false;
      for (const [k, v] of d.reasons) {
        const kind = v.decisionReason?.type === "rule" ? " (rule)" : v.blockedPath ? " (path check)" : v.decisionReason?.bashMissKind ? ` (${v.decisionReason.bashMissKind})` : "";
        if (v.blockedPath) own = true;
        parts.push(`${k} → ${v.behavior}${kind}`);
      }
      reason = `subcommands: ${parts.join("; ")}`;
      // A subcommand Claude Code asked about for its own path checks.
      if (own && r.behavior !== "deny") reason = `path check: in ${reason}`;
    }
    // Claude Code's own path checks (working folders, critical paths) name the path.
    if (r.blockedPath) reason = `path check: ${r.blockedPath}${reason ? `; ${reason}` : ""}`;
    if (!reason && r.message) reason = `message: ${r.message}`;
    results.push({ id: c.id, call: i, behavior: r.behavior, reason });
  }
}
const validations = (input.validate ?? []).map((rule) => {
  const v = cc.validate(rule);
  return { rule, valid: v.valid, error: v.error ?? null };
});
const shape = cc.settings(cc.features()).shape;
const permShape = shape.permissions?.unwrap?.().shape ?? shape.permissions?._def?.innerType?.shape ?? {};
const text = JSON.stringify({
  version: JSON.parse(fs.readFileSync(path.join(pkg, "package.json"), "utf8")).version,
  results,
  validate: validations,
  settings_keys: { top: Object.keys(shape), permissions: Object.keys(permShape) },
});
// The bundle leaves timers behind: exit once the whole answer is written (a pipe takes
// 64 KiB at a time).
process.stdout.write(text + "\n", () => process.exit(0));
