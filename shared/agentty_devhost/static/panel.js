// Draws a plugin's v1 UI tree the way Agentty does and turns what the user does into ui/event messages.
//
// Rules kept from Agentty:
// - a text field keeps what the user typed unless the plugin sends a different `value`;
// - typing sends `change` after a pause (CHANGE_PAUSE_MS), Enter sends `submit`;
// - a pending `change` is sent before any click, so "type, then press a button" never loses text;
// - list rows send `select`, a row's buttons send `action` with the row's item id;
// - choice and toggle send `change` with the new value and show it at once.
"use strict";

const CHANGE_PAUSE_MS = 300;
const SHORT_DETAIL_CHARS = 14;
const GAP_CLASSES = { none: "gap-none", small: "gap-small", medium: "gap-medium", large: "gap-large" };

function el(tag, attributes, children) {
  const node = document.createElement(tag);
  for (const [key, value] of Object.entries(attributes || {})) {
    if (value === undefined || value === null || value === false) continue;
    if (key === "text") node.textContent = value;
    else if (key === "className") node.className = value;
    else if (key.startsWith("on")) node.addEventListener(key.slice(2), value);
    else node.setAttribute(key, value === true ? "" : String(value));
  }
  for (const child of children || []) if (child) node.appendChild(child);
  return node;
}

function iconNode(name, tone) {
  if (!name) return null;
  return el("span", { className: `icon tone-${tone || "none"}`, title: name, "aria-hidden": "true", text: iconGlyph(name) });
}

class PanelView {
  constructor(root, send) {
    this.root = root;
    this.send = send;            // send({element, event, value?, item?, action?})
    this.memories = {};          // per plugin key: what the user did that the tree does not say
    this.key = null;
    this.pending = new Map();    // element id -> {timer, value}
  }

  memory(key) {
    if (!this.memories[key]) this.memories[key] = { inputs: {}, choices: {}, toggles: {}, selected: {} };
    return this.memories[key];
  }

  // Send every `change` still waiting for the typing pause, before another event goes out.
  flushPending() {
    for (const [element, entry] of this.pending) {
      clearTimeout(entry.timer);
      this.send({ element, event: "change", value: entry.value });
    }
    this.pending.clear();
  }

  cancelPending(element) {
    const entry = this.pending.get(element);
    if (entry) clearTimeout(entry.timer);
    this.pending.delete(element);
  }

  clear(message, className) {
    this.pending.forEach((entry) => clearTimeout(entry.timer));
    this.pending.clear();
    this.root.replaceChildren();
    if (message) this.root.appendChild(el("div", { className: className || "panel-empty", text: message }));
  }

  render(key, tree) {
    if (key !== this.key) {
      this.flushPending();
      this.key = key;
    }
    // Re-drawing replaces the nodes; remember which field had focus and where its caret was.
    const active = document.activeElement;
    let focus = null;
    if (active && this.root.contains(active) && active.dataset.element) {
      focus = { element: active.dataset.element, start: active.selectionStart, end: active.selectionEnd };
    }
    const scroll = this.root.scrollTop;
    const mem = this.memory(key);
    this.root.replaceChildren(this.node(tree, mem, 0));
    this.root.scrollTop = scroll;
    if (focus) {
      const field = this.root.querySelector(`[data-element="${CSS.escape(focus.element)}"]`);
      if (field && (field.tagName === "INPUT" || field.tagName === "TEXTAREA")) {
        field.focus();
        try { field.setSelectionRange(focus.start, focus.end); } catch (error) { /* not a text field */ }
      }
    }
  }

  node(node, mem, depth) {
    if (!node || typeof node !== "object") return null;
    const builder = this["draw_" + node.type];
    if (!builder) return el("div", { className: "ui-unknown", text: `unknown element ${node.type}` });
    return builder.call(this, node, mem, depth);
  }

  children(node, mem, depth) {
    return (node.children || []).map((child) => this.node(child, mem, depth + 1));
  }

  draw_column(node, mem, depth) {
    return el("div", { className: `ui-column ${GAP_CLASSES[node.gap || "medium"]}` }, this.children(node, mem, depth));
  }

  draw_row(node, mem, depth) {
    const wrap = node.wrap ? " wrap" : "";
    return el("div", { className: `ui-row ${GAP_CLASSES[node.gap || "medium"]}${wrap}` }, this.children(node, mem, depth));
  }

  draw_section(node, mem, depth) {
    return el("section", { className: "ui-section" }, [
      el("h3", { className: "ui-section-title", text: node.title }),
      el("div", { className: "ui-column gap-medium" }, this.children(node, mem, depth)),
    ]);
  }

  draw_text(node) {
    return el("div", { className: `ui-text style-${node.style || "body"}`, text: node.text });
  }

  draw_divider() {
    return el("hr", { className: "ui-divider" });
  }

  draw_badge(node) {
    return el("span", { className: `ui-badge tone-${node.tone || "neutral"}`, text: node.text });
  }

  draw_spinner(node) {
    return el("div", { className: "ui-spinner", role: "status" }, [
      el("span", { className: "spinner-wheel", "aria-hidden": "true" }),
      node.text ? el("span", { text: node.text }) : null,
    ]);
  }

  draw_button(node) {
    return el("button", {
      className: `ui-button variant-${node.variant || "secondary"}`,
      "data-element": node.id,
      disabled: node.disabled === true,
      type: "button",
      onclick: () => {
        this.flushPending();
        this.send({ element: node.id, event: "click" });
      },
    }, [iconNode(node.icon), el("span", { text: node.label })]);
  }

  draw_input(node, mem) {
    const pluginValue = node.value || "";
    let remembered = mem.inputs[node.id];
    // Replace what the user typed only when the plugin sends a value different from its previous one.
    if (!remembered || remembered.pluginValue !== pluginValue) {
      remembered = { pluginValue, typed: pluginValue };
      mem.inputs[node.id] = remembered;
      this.cancelPending(node.id);
    }
    const multiline = typeof node.rows === "number" && node.rows > 1;
    const field = el(multiline ? "textarea" : "input", {
      className: "ui-input",
      "data-element": node.id,
      placeholder: node.placeholder || "",
      rows: multiline ? node.rows : null,
      type: multiline ? null : "text",
      spellcheck: "false",
      autocomplete: "off",
    });
    field.value = remembered.typed;
    field.addEventListener("input", () => {
      remembered.typed = field.value;
      this.cancelPending(node.id);
      const value = field.value;
      const timer = setTimeout(() => {
        this.pending.delete(node.id);
        this.send({ element: node.id, event: "change", value });
      }, CHANGE_PAUSE_MS);
      this.pending.set(node.id, { timer, value });
    });
    field.addEventListener("keydown", (event) => {
      if (event.key !== "Enter" || event.isComposing) return;   // Enter that confirms an IME word is not a submit
      if (multiline && !(event.metaKey || event.ctrlKey)) return; // a text area takes Enter as a new line
      event.preventDefault();
      this.cancelPending(node.id);
      this.flushPending();
      this.send({ element: node.id, event: "submit", value: field.value });
    });
    return field;
  }

  draw_list(node, mem) {
    const items = node.items || [];
    if (!items.length) {
      return el("div", { className: "ui-list empty", "data-element": node.id }, [
        el("div", { className: "ui-list-empty", text: node.empty || "" }),
      ]);
    }
    const rows = items.map((item) => {
      const actions = (item.actions || []).map((action) => el("button", {
        className: "ui-row-action",
        type: "button",
        "data-action": action.id,
        title: action.tooltip || action.label || action.icon || action.id,
        "aria-label": action.tooltip || action.label || action.id,
        onclick: (event) => {
          event.stopPropagation();
          this.flushPending();
          this.send({ element: node.id, event: "action", item: item.id, action: action.id });
        },
      // A row is narrow: an action with an icon shows only the icon (its label becomes the tooltip).
      }, action.icon ? [iconNode(action.icon)] : [el("span", { text: action.label || action.id })]));
      const selected = mem.selected[node.id] === item.id;
      // A short detail (a count, a time) sits at the right; a long one (a snippet) gets its own line.
      const longDetail = typeof item.detail === "string" && item.detail.length > SHORT_DETAIL_CHARS;
      const rowNode = el("li", { className: `ui-list-row${selected ? " selected" : ""}`, "data-item": item.id, tabindex: "0" }, [
        iconNode(item.icon, item.tone),
        el("div", { className: "ui-list-text" }, [
          el("div", { className: "ui-list-title", text: item.title }),
          item.subtitle ? el("div", { className: "ui-list-subtitle", text: item.subtitle }) : null,
          longDetail ? el("div", { className: "ui-list-detail long", text: item.detail }) : null,
        ]),
        item.detail && !longDetail ? el("div", { className: "ui-list-detail", text: item.detail }) : null,
        actions.length ? el("div", { className: "ui-row-actions" }, actions) : null,
      ]);
      rowNode.addEventListener("click", () => {
        this.flushPending();
        mem.selected[node.id] = item.id;
        rowNode.parentNode.querySelectorAll(".ui-list-row.selected").forEach((row) => row.classList.remove("selected"));
        rowNode.classList.add("selected");
        this.send({ element: node.id, event: "select", item: item.id });
      });
      rowNode.addEventListener("keydown", (event) => {
        if (event.key === "Enter" && event.target === rowNode) rowNode.click();
      });
      return rowNode;
    });
    return el("ul", { className: "ui-list", "data-element": node.id }, rows);
  }

  draw_choice(node, mem) {
    const pluginValue = node.value || "";
    let remembered = mem.choices[node.id];
    if (!remembered || remembered.pluginValue !== pluginValue) {
      remembered = { pluginValue, shown: pluginValue };
      mem.choices[node.id] = remembered;
    }
    const group = el("div", { className: "ui-choice", role: "radiogroup", "data-element": node.id });
    for (const option of node.options || []) {
      const button = el("button", {
        className: `ui-choice-option${option.value === remembered.shown ? " selected" : ""}`,
        type: "button",
        role: "radio",
        "aria-checked": option.value === remembered.shown ? "true" : "false",
        "data-value": option.value,
        text: option.label,
        onclick: () => {
          this.flushPending();
          remembered.shown = option.value;
          group.querySelectorAll(".ui-choice-option").forEach((b) => {
            const on = b.dataset.value === option.value;
            b.classList.toggle("selected", on);
            b.setAttribute("aria-checked", on ? "true" : "false");
          });
          this.send({ element: node.id, event: "change", value: option.value });
        },
      });
      group.appendChild(button);
    }
    return group;
  }

  draw_toggle(node, mem) {
    const pluginValue = node.value === true;
    let remembered = mem.toggles[node.id];
    if (!remembered || remembered.pluginValue !== pluginValue) {
      remembered = { pluginValue, shown: pluginValue };
      mem.toggles[node.id] = remembered;
    }
    const box = el("input", { type: "checkbox", className: "ui-toggle-box", "data-element": node.id, role: "switch" });
    box.checked = remembered.shown;
    box.addEventListener("change", () => {
      this.flushPending();
      remembered.shown = box.checked;
      this.send({ element: node.id, event: "change", value: box.checked });
    });
    return el("label", { className: "ui-toggle" }, [box, el("span", { className: "ui-toggle-track", "aria-hidden": "true" }), el("span", { text: node.label })]);
  }
}
