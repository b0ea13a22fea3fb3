// Agentty's icon names drawn as plain text glyphs (no icon font is shipped with the dev host).
// Unknown names fall back to a dot; the name is always in the element's title for reference.
"use strict";

const ICON_GLYPHS = {
  "app-window": "▭", "arrow-down": "↓", "arrow-left": "←", "arrow-right": "→", "arrow-up": "↑",
  "arrow-up-right": "↗", "at-sign": "@", "bell": "♪", "bell-dot": "♪", "blocks": "▦", "book-open": "▥",
  "bookmark": "❐", "bot": "☺", "brain": "✺", "bug": "✹", "calendar": "▦", "chart-column": "▥", "check": "✓",
  "chevron-down": "⌄", "chevron-right": "›", "chevron-up": "⌃", "circle-check": "✔", "circle-dot": "◉",
  "circle-pause": "‖", "circle-x": "✖", "clipboard": "▤", "clipboard-paste": "▤", "clock": "◷", "cloud": "☁",
  "code": "‹›", "columns-2": "▥", "command": "⌘", "container": "▣", "copy": "❐", "database": "◫",
  "download": "⤓", "ellipsis": "…", "external-link": "↗", "eye": "◉", "file-input": "▤", "file-plus": "▤",
  "file-text": "▤", "file": "▯", "folder": "▰", "folder-git-2": "▰", "folder-open": "▱", "folder-plus": "▰",
  "git-branch": "⎇", "git-commit-horizontal": "◦", "git-pull-request": "⎇", "git-fork": "⎇", "globe": "◍",
  "grip-vertical": "⋮", "hammer": "⚒", "hash": "#", "history": "↺", "house": "⌂", "image": "▨", "info": "ℹ",
  "key-round": "⊸", "layout-panel-left": "▧", "lightbulb": "☀", "link": "∞", "list": "≡", "list-tree": "≡",
  "loader-circle": "◌", "lock": "⊸", "mail": "✉", "maximize-2": "⤢", "message-circle-question": "?",
  "message-square": "▢", "minimize-2": "⤡", "minus": "−", "network": "⋔", "notebook": "▥",
  "notebook-pen": "✎", "package": "▣", "pencil": "✎", "play": "▶", "plug": "↯", "plus": "+", "power": "◍",
  "puzzle": "✣", "refresh-cw": "↻", "rocket": "➶", "rotate-cw": "↻", "rows-2": "▤", "save": "▣",
  "scroll-text": "▤", "search": "⌕", "send": "➤", "settings": "⚙", "shield-alert": "⚠", "sparkles": "✦",
  "square": "□", "square-plus": "⊞", "square-terminal": "▣", "star": "★", "sticky-note": "▤", "tag": "#",
  "terminal": "›_", "trash-2": "⌫", "undo-2": "↶", "unlink": "⌿", "upload": "⤒", "users": "☺",
  "wand-sparkles": "✦", "workflow": "⇶", "wrench": "⚒", "x": "✕", "zap": "ϟ", "graduation-cap": "▲",
};

function iconGlyph(name) {
  if (!name) return "";
  return ICON_GLYPHS[name] || "•";
}
