// The dev host page: plugin switcher, simulated window, panel, toasts, host log, command palette, links.
// Everything the page shows arrives over the WebSocket (/ws); everything the user does is a JSON POST.
"use strict";

const LOG_KEEP = 1500;
const TOAST_MS = 4000;
const PANE_KINDS = ["claude", "codex", "shell"];
const PANE_STATUSES = ["idle", "working", "thinking", "finished", "permission", "question", "interrupted", "shell", "exited"];
const BUSY = ["working", "thinking", "permission", "question"];

const params = new URLSearchParams(location.search);
const view = params.get("view") || "full";          // "panel": only the panel (used by `make screenshots`)
if (view === "panel") document.body.classList.add("view-panel");

const state = {
  plugins: new Map(),     // key -> plugin summary + log
  order: [],
  world: null,
  focusHints: {},
  current: null,
  editingPane: null,
  editorNode: null,
};

const $ = (id) => document.getElementById(id);
const panelView = new PanelView($("panel"), (event) => sendEvent(event));
let sendChain = Promise.resolve();

// ------------------------------------------------------------------ talking to the dev host

async function post(path, body, method) {
  const response = await fetch(path, {
    method: method || "POST",
    headers: { "Content-Type": "application/json" },
    body: JSON.stringify(body || {}),
  });
  let data = {};
  try { data = await response.json(); } catch (error) { /* empty body */ }
  if (!response.ok) throw new Error(data.error || `${response.status} ${response.statusText}`);
  return data;
}

function sendEvent(event) {
  const key = state.current;
  // Events go out one after another, in the order the user made them.
  sendChain = sendChain.then(() => post(`/api/plugins/${encodeURIComponent(key)}/event`, event))
    .catch((error) => showPanelError(`Agentty would not send this event: ${error.message}`));
}

function showPanelError(text) {
  const box = $("panel-error");
  box.textContent = text;
  box.hidden = false;
  clearTimeout(showPanelError.timer);
  showPanelError.timer = setTimeout(() => { box.hidden = true; }, 5000);
}

function connect() {
  const socket = new WebSocket(`${location.protocol === "https:" ? "wss" : "ws"}://${location.host}/ws`);
  socket.onopen = () => { $("connection").textContent = "connected"; $("connection").className = "connection ok"; };
  socket.onclose = () => {
    $("connection").textContent = "disconnected — retrying";
    $("connection").className = "connection bad";
    setTimeout(connect, 1000);
  };
  socket.onmessage = (message) => receive(JSON.parse(message.data));
}

function receive(message) {
  if (message.type === "hello") {
    state.plugins.clear();
    state.order = [];
    for (const plugin of message.state.plugins) {
      state.plugins.set(plugin.key, plugin);
      state.order.push(plugin.key);
    }
    state.world = message.state.world;
    state.focusHints = message.state.focusHints || {};
    const wanted = params.get("plugin");
    const first = state.order.find((key) => key === wanted) || state.current || state.order[0];
    state.current = null;
    renderTabs();
    renderWorld();
    if (first) selectPlugin(first);
    document.body.dataset.ready = "true";
  } else if (message.type === "plugin") {
    const previous = state.plugins.get(message.key);
    const update = message.plugin;
    const log = (previous ? previous.log : []).concat(update.log || []);
    // An update leaves out `panel` when the tree did not change; keep the one we have.
    const plugin = Object.assign({}, previous || {}, update, { key: message.key, log: log.slice(-LOG_KEEP) });
    state.plugins.set(message.key, plugin);
    // A restarted plugin starts from a blank panel: forget what was typed into the old process's fields.
    if (previous && previous.restarts !== plugin.restarts) delete panelView.memories[message.key];
    let showPanel = false;
    for (const entry of update.log || []) {
      if (entry.kind === "toast") showToast(plugin, entry);
      if (entry.kind === "call" && entry.method === "ui/showPanel") showPanel = true;
    }
    renderTabs();
    // ui/showPanel: Agentty brings that plugin's panel to the front (the panel page keeps its own choice).
    if (showPanel && message.key !== state.current && view !== "panel") {
      selectPlugin(message.key);
      return;
    }
    if (message.key === state.current) {
      const panelChanged = !previous || previous.panelSeq !== plugin.panelSeq || previous.state !== plugin.state;
      renderCurrent(panelChanged, update.log || []);
    }
  } else if (message.type === "world") {
    state.world = message.world;
    renderWorld();
  }
}

// ------------------------------------------------------------------ plugins

function renderTabs() {
  const tabs = $("plugin-tabs");
  tabs.replaceChildren();
  for (const key of state.order) {
    const plugin = state.plugins.get(key);
    const violations = plugin.log.filter((entry) => entry.kind === "violation").length;
    tabs.appendChild(el("button", {
      className: `plugin-tab${key === state.current ? " current" : ""} state-${plugin.state}`,
      "data-plugin": key,
      title: `${plugin.name} — ${plugin.folder}`,
      onclick: () => selectPlugin(key),
    }, [
      el("span", { className: "state-dot", title: plugin.state }),
      iconNode(plugin.icon),
      el("span", { text: plugin.title }),
      plugin.badge ? el("span", { className: "tab-badge", text: plugin.badge }) : null,
      violations ? el("span", { className: "tab-violations", title: "violations", text: String(violations) }) : null,
    ]));
  }
}

async function selectPlugin(key) {
  if (!state.plugins.has(key)) return;
  const previous = state.current;
  if (previous === key) return;
  panelView.flushPending();
  state.current = key;
  const url = new URL(location.href);
  url.searchParams.set("plugin", key);
  history.replaceState(null, "", url);
  renderTabs();
  renderCurrent(true, null);
  // Agentty shows one panel at a time here: the one we leave is closed, the one we show is opened.
  if (previous && state.plugins.has(previous)) {
    post(`/api/plugins/${encodeURIComponent(previous)}/panel`, { open: false }).catch(() => {});
  }
  const hint = state.focusHints[key];
  if (hint !== undefined && state.world && state.world.focusedPane !== hint) {
    await post("/api/world/focus", { paneId: hint }).catch(() => {});
  }
  post(`/api/plugins/${encodeURIComponent(key)}/panel`, { open: true }).catch((error) => showPanelError(error.message));
}

function renderCurrent(panelChanged, newEntries) {
  const plugin = state.plugins.get(state.current);
  if (!plugin) return;
  $("panel-title").textContent = plugin.title;
  $("panel-icon").textContent = iconGlyph(plugin.icon);
  $("panel-badge").textContent = plugin.badge || "";
  $("panel-badge").hidden = !plugin.badge;
  const stateText = plugin.state === "failed" ? `failed (exit ${plugin.exitCode})` : plugin.state;
  $("plugin-state").textContent = stateText;
  $("plugin-state").className = `plugin-state state-${plugin.state}`;
  $("panel-frame").dataset.plugin = plugin.key;
  $("panel-frame").dataset.panelSeq = String(plugin.panelSeq);
  if (panelChanged) {
    if (plugin.state === "invalid") {
      panelView.clear(`This plugin cannot start: ${plugin.problem}`, "panel-problem");
    } else if (plugin.panel) {
      panelView.render(plugin.key, plugin.panel);
    } else if (plugin.state === "running") {
      panelView.clear("Waiting for the plugin to draw its panel…");
    } else {
      panelView.clear(`The plugin is ${stateText}. Press Restart once it is fixed (or just save a file).`, "panel-problem");
      const stderr = plugin.log.filter((entry) => entry.kind === "stderr").slice(-12).map((entry) => entry.text);
      if (stderr.length) $("panel").appendChild(el("pre", { className: "panel-stderr", text: stderr.join("\n") }));
    }
  }
  $("plugin-info").textContent = `${plugin.name}${plugin.version ? " " + plugin.version : ""} · permissions: ${
    plugin.permissions.length ? plugin.permissions.join(", ") : "none"} · data: ${plugin.dataDir}`;
  if (newEntries === null) renderLog(plugin);
  else appendLog(plugin, newEntries);
}

$("restart").addEventListener("click", () => {
  const key = state.current;
  if (!key) return;
  $("restart").disabled = true;
  post(`/api/plugins/${encodeURIComponent(key)}/restart`).catch((error) => showPanelError(error.message))
    .finally(() => { $("restart").disabled = false; });
});

// ------------------------------------------------------------------ toasts (Agentty shows one per 700 ms)

function showToast(plugin, entry) {
  if (view === "panel") return;
  const toast = el("div", {
    className: `toast level-${entry.level}${entry.dropped ? " dropped" : ""}`,
    "data-plugin": plugin.key,
  }, [
    el("div", { className: "toast-source", text: plugin.title }),
    el("div", { className: "toast-text", text: entry.text }),
    entry.dropped ? el("div", { className: "toast-note", text: "dropped by Agentty: less than 700 ms after the previous notification" }) : null,
  ]);
  $("toasts").appendChild(toast);
  setTimeout(() => toast.remove(), entry.dropped ? TOAST_MS / 2 : TOAST_MS);
}

// ------------------------------------------------------------------ host log

function enabledKinds() {
  return new Set([...document.querySelectorAll("#log-filters input:checked")].map((box) => box.value));
}

function logEntryNode(entry) {
  const time = new Date(entry.time).toLocaleTimeString([], { hour12: false }) + "." + String(entry.time % 1000).padStart(3, "0");
  const classes = [`log-entry`, `kind-${entry.kind}`];
  if (entry.effect) classes.push("effect");
  if (entry.error) classes.push("has-error");
  if (entry.level) classes.push(`level-${entry.level}`);
  if (entry.dropped) classes.push("dropped");
  const head = el("div", { className: "log-head" }, [
    el("span", { className: "log-time", text: time }),
    el("span", { className: "log-kind", text: entry.kind }),
    el("span", { className: "log-title", text: describeEntry(entry) }),
  ]);
  const body = [];
  if (entry.kind === "call" && entry.method === "host/openUrl" && !entry.error && entry.params) {
    // Agentty would open it in the browser; here it is a link the author can follow (http/https only, checked).
    body.push(el("a", { className: "log-link", href: entry.params.url, target: "_blank", rel: "noopener noreferrer",
      text: "open it" }));
  }
  if (entry.kind === "call" && entry.method === "prompt/inject" && entry.params) {
    body.push(el("pre", { className: "log-prompt", text: entry.params.text || "" }));
    const options = Object.assign({}, entry.params);
    delete options.text;
    body.push(el("div", { className: "log-detail", text: `options ${JSON.stringify(options)} → ${JSON.stringify(entry.error || entry.result)}` }));
  } else if (entry.kind === "call" && entry.method !== "ui/setBadge" && entry.method !== "ui/notify") {
    body.push(el("div", { className: "log-detail", text: `${JSON.stringify(entry.params)} → ${JSON.stringify(entry.error || entry.result)}` }));
  } else if (entry.kind === "sent" && entry.params) {
    body.push(el("div", { className: "log-detail", text: JSON.stringify(entry.params) }));
  }
  return el("div", { className: classes.join(" "), "data-kind": entry.kind, "data-method": entry.method || null }, [head].concat(body));
}

function describeEntry(entry) {
  switch (entry.kind) {
    case "call": {
      const p = entry.params || {};
      const labels = {
        "prompt/inject": `prompt injected (target ${p.target || "ask"})`,
        "terminal/send": `terminal text sent${p.submit ? " + Enter" : ""}: ${p.text || ""}`,
        "host/openUrl": `URL opened: ${p.url || ""}`,
        "host/revealPath": `path revealed: ${p.path || ""}`,
        "host/copy": "copied to the clipboard",
        "ui/notify": `notify (${p.kind || "info"}): ${p.message || ""}`,
        "ui/setBadge": `badge: "${p.text || ""}"`,
      };
      const label = labels[entry.method] || entry.method;
      return entry.error ? `${label} — error ${entry.error.code}: ${entry.error.message}` : label;
    }
    case "toast": return `${entry.dropped ? "dropped" : "shown"} (${entry.level}): ${entry.text}`;
    case "sent": return `→ ${entry.method}`;
    default: return entry.text || "";
  }
}

function renderLog(plugin) {
  const log = $("log");
  const kinds = enabledKinds();
  log.replaceChildren(...plugin.log.filter((entry) => kinds.has(entry.kind)).map(logEntryNode));
  log.scrollTop = log.scrollHeight;
  updateViolationCount(plugin);
}

function appendLog(plugin, entries) {
  const log = $("log");
  const kinds = enabledKinds();
  const atBottom = log.scrollHeight - log.scrollTop - log.clientHeight < 40;
  for (const entry of entries) if (kinds.has(entry.kind)) log.appendChild(logEntryNode(entry));
  while (log.childElementCount > LOG_KEEP) log.firstElementChild.remove();
  if (atBottom) log.scrollTop = log.scrollHeight;
  updateViolationCount(plugin);
}

function updateViolationCount(plugin) {
  const count = plugin.log.filter((entry) => entry.kind === "violation").length;
  $("violation-count").textContent = String(count);
  $("violation-count").className = count ? "alert" : "";
}

$("log-filters").addEventListener("change", () => {
  const plugin = state.plugins.get(state.current);
  if (plugin) renderLog(plugin);
});

// ------------------------------------------------------------------ the simulated window

function renderWorld() {
  const world = state.world;
  if (!world) return;
  $("language").value = world.language;
  const active = document.activeElement;
  const keep = state.editorNode && state.editorNode.contains(active)
    ? { node: active, start: active.selectionStart, end: active.selectionEnd, scroll: active.scrollTop } : null;
  const holder = $("workspaces");
  holder.replaceChildren();
  for (const workspace of world.workspaces) {
    const panes = workspace.panes.map((pane) => paneNode(pane, world.focusedPane === pane.id));
    holder.appendChild(el("div", { className: "workspace", "data-workspace": workspace.id }, [
      el("div", { className: "workspace-head" }, [
        el("span", { className: "workspace-name", text: workspace.name }),
        el("span", { className: "workspace-cwd", text: workspace.cwd || "", title: workspace.cwd || "" }),
        el("button", {
          className: "small-button", type: "button", title: "Add a pane to this workspace", text: "+ pane",
          onclick: () => post(`/api/world/workspaces/${workspace.id}/panes`, { kind: "claude" }).catch((e) => alert(e.message)),
        }),
      ]),
    ].concat(panes)));
  }
  if (keep) {
    keep.node.focus();
    try { keep.node.setSelectionRange(keep.start, keep.end); } catch (error) { /* a select has no caret */ }
    keep.node.scrollTop = keep.scroll;
  }
}

function paneNode(pane, focused) {
  const busy = BUSY.includes(pane.status);
  const statusSelect = el("select", { className: "pane-status", title: "Pane status (sends context/changed when focused)" },
    PANE_STATUSES.map((status) => {
      const option = el("option", { value: status, text: status });
      if (status === pane.status) option.selected = true;
      return option;
    }));
  statusSelect.addEventListener("click", (event) => event.stopPropagation());
  statusSelect.addEventListener("change", () => editPane(pane.id, { status: statusSelect.value }));
  const node = el("div", {
    className: `pane${focused ? " focused" : ""}${busy ? " busy" : ""}`,
    "data-pane": pane.id,
    title: "Click to focus this pane",
    onclick: () => { if (!focused) post("/api/world/focus", { paneId: pane.id }).catch((e) => alert(e.message)); },
  }, [
    el("div", { className: "pane-head" }, [
      el("span", { className: `pane-kind kind-${pane.kind}`, text: pane.kind }),
      el("span", { className: "pane-title", text: `${pane.title} #${pane.id}` }),
      statusSelect,
    ]),
    el("div", { className: "pane-cwd", text: pane.cwd || "(no folder)", title: pane.cwd || "" }),
    el("div", { className: "pane-session", text: pane.session ? `session: ${pane.session.title || pane.session.sessionId} (${(pane.session.turns || []).length} turns)` : "no session" }),
    pane.typed.length ? el("div", { className: "pane-typed" }, pane.typed.slice(-3).map((typed) =>
      el("pre", { text: typed.text + (typed.submitted ? "  ⏎" : "") }))) : null,
    el("button", {
      className: "small-button edit-pane", type: "button", text: state.editingPane === pane.id ? "Close editor" : "Edit pane",
      onclick: (event) => {
        event.stopPropagation();
        state.editingPane = state.editingPane === pane.id ? null : pane.id;
        state.editorNode = null;
        renderWorld();
      },
    }),
    state.editingPane === pane.id ? paneEditor(pane) : null,
  ]);
  return node;
}

function paneEditor(pane) {
  // World updates redraw the window often; keep the open editor (and what is being typed in it) as it is.
  if (state.editorNode && state.editorNode.dataset.pane === String(pane.id)) return state.editorNode;
  state.editorNode = buildPaneEditor(pane);
  return state.editorNode;
}

function buildPaneEditor(pane) {
  const kind = el("select", {}, PANE_KINDS.map((k) => {
    const option = el("option", { value: k, text: k });
    if (k === pane.kind) option.selected = true;
    return option;
  }));
  const cwd = el("input", { type: "text", value: pane.cwd || "", spellcheck: "false" });
  const title = el("input", { type: "text", value: pane.title || "" });
  const session = el("textarea", { rows: 8, spellcheck: "false" });
  session.value = pane.session ? JSON.stringify(pane.session, null, 2) : "null";
  const result = el("div", { className: "form-result" });
  const save = el("button", {
    type: "submit", text: "Save",
  });
  const form = el("form", {
    className: "pane-editor",
    "data-pane": pane.id,
    onclick: (event) => event.stopPropagation(),
    onsubmit: (event) => {
      event.preventDefault();
      let sessionValue;
      try { sessionValue = JSON.parse(session.value || "null"); } catch (error) {
        result.textContent = `The session is not valid JSON: ${error.message}`;
        return;
      }
      editPane(pane.id, { kind: kind.value, cwd: cwd.value, title: title.value, session: sessionValue })
        .then(() => { state.editingPane = null; state.editorNode = null; renderWorld(); })
        .catch((error) => { result.textContent = error.message; });
    },
  }, [
    el("label", {}, [el("span", { text: "kind" }), kind]),
    el("label", {}, [el("span", { text: "folder" }), cwd]),
    el("label", {}, [el("span", { text: "title" }), title]),
    el("label", {}, [el("span", { text: "session (what session/get returns)" }), session]),
    save, result,
  ]);
  return form;
}

function editPane(paneId, changes) {
  return post(`/api/world/panes/${paneId}`, changes, "PATCH").catch((error) => { alert(error.message); throw error; });
}

$("language").addEventListener("change", () => {
  post("/api/world/language", { language: $("language").value }).catch((error) => alert(error.message));
});

$("link-form").addEventListener("submit", (event) => {
  event.preventDefault();
  const url = $("link-input").value.trim();
  $("link-result").textContent = "";
  post("/api/links", { url })
    .then((data) => {
      $("link-result").textContent = `sent to ${data.plugin} (the link guard now applies to it until it restarts)`;
      if (data.plugin !== state.current) selectPlugin(data.plugin);
    })
    .catch((error) => { $("link-result").textContent = error.message; });
});

// ------------------------------------------------------------------ command palette

function paletteCommands() {
  const commands = [];
  for (const key of state.order) {
    const plugin = state.plugins.get(key);
    for (const command of plugin.commands || []) {
      if (command.palette !== false) commands.push({ key, plugin, command });
    }
  }
  return commands;
}

function openPalette() {
  $("palette").hidden = false;
  $("palette-filter").value = "";
  renderPalette();
  $("palette-filter").focus();
}

function closePalette() {
  $("palette").hidden = true;
}

function renderPalette() {
  const words = $("palette-filter").value.toLowerCase().split(/\s+/).filter(Boolean);
  const matches = paletteCommands().filter(({ plugin, command }) => {
    const hay = `${command.title} ${command.id} ${plugin.title}`.toLowerCase();
    return words.every((word) => hay.includes(word));
  });
  $("palette-list").replaceChildren(...matches.map(({ key, plugin, command }, index) => el("li", {
    className: index === 0 ? "active" : "",
    "data-command": command.id,
    onclick: () => runCommand(key, command.id),
  }, [
    el("span", { className: "palette-title", text: command.title }),
    el("span", { className: "palette-id", text: `${command.id} · ${plugin.title}` }),
  ])));
  if (!matches.length) $("palette-list").appendChild(el("li", { className: "palette-none", text: "No command matches" }));
}

function runCommand(key, commandId) {
  closePalette();
  if (key !== state.current) selectPlugin(key);
  post(`/api/plugins/${encodeURIComponent(key)}/command`, { command: commandId }).catch((error) => showPanelError(error.message));
}

$("palette-open").addEventListener("click", openPalette);
$("palette-filter").addEventListener("input", renderPalette);
$("palette-filter").addEventListener("keydown", (event) => {
  if (event.key === "Escape") closePalette();
  if (event.key === "Enter") {
    const first = $("palette-list").querySelector("li[data-command]");
    if (first) first.click();
  }
});
$("palette").addEventListener("click", (event) => { if (event.target === $("palette")) closePalette(); });
document.addEventListener("keydown", (event) => {
  if ((event.metaKey || event.ctrlKey) && event.shiftKey && event.key.toLowerCase() === "p") {
    event.preventDefault();
    openPalette();
  }
});

connect();
