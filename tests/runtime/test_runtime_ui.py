"""UI builders (Node SDK defaults) and validation against the host's tree rules."""

from __future__ import annotations

import pytest
from agentty_plugin import ui


def test_builders_use_the_node_sdk_defaults():
    assert ui.column([]) == {"type": "column", "children": [], "gap": "medium"}
    assert ui.row([]) == {"type": "row", "children": [], "gap": "medium", "wrap": False}
    assert ui.text(None) == {"type": "text", "text": "", "style": "body"}
    assert ui.text(42, "muted") == {"type": "text", "text": "42", "style": "muted"}
    assert ui.button("a", "A") == {"type": "button", "id": "a", "label": "A", "variant": "secondary",
                                   "disabled": False}
    assert ui.input("q") == {"type": "input", "id": "q", "placeholder": "", "value": ""}
    assert ui.choice("c", [ui.option("a", "A")]) == {"type": "choice", "id": "c",
                                                      "options": [{"value": "a", "label": "A"}], "value": ""}
    assert ui.toggle("t", "T") == {"type": "toggle", "id": "t", "label": "T", "value": False}
    assert ui.badge("x") == {"type": "badge", "text": "x", "tone": "neutral"}
    assert ui.spinner() == {"type": "spinner", "text": ""}
    assert ui.divider() == {"type": "divider"}
    assert ui.section("S", []) == {"type": "section", "title": "S", "children": []}
    assert ui.list("l", []) == {"type": "list", "id": "l", "items": []}


def test_none_and_false_children_are_dropped_and_one_level_is_flattened():
    show_c = ""
    tree = ui.column([None, False, ui.text("a"), [ui.text("b"), None], show_c and ui.text("c")])
    assert [c["text"] for c in tree["children"]] == ["a", "b"]


def test_items_and_actions_omit_unset_fields():
    row = ui.item("1", "One", subtitle="sub", actions=[ui.action("open", icon="send"), None])
    assert row == {"id": "1", "title": "One", "subtitle": "sub", "actions": [{"id": "open", "icon": "send"}]}


@pytest.mark.parametrize("tree,path", [
    (ui.column([ui.text("a"), ui.text("b"), {"type": "bogus"}]), "children[2].type"),
    ({"type": "column", "children": [{"type": "list", "id": "l", "items": [
        {"id": "1", "title": "ok"}, {"id": 5, "title": "x"}]}]}, "children[0].items[1].id"),
    ({"type": "text", "text": "x", "style": "loud"}, "style"),
    ({"type": "button", "id": "b"}, "label"),
    ({"type": "column", "gap": "huge", "children": []}, "gap"),
    ({"type": "list", "id": "l", "items": [{"id": "1", "title": "t", "actions": [{"label": "x"}]}]},
     "items[0].actions[0].id"),
    ({"type": "toggle", "id": "t", "label": "T", "value": "yes"}, "value"),
    ({"type": "choice", "id": "c", "options": [{"value": "a"}]}, "options[0].label"),
    ({"type": "badge", "text": "x", "tone": "purple"}, "tone"),
])
def test_invalid_trees_name_the_path_to_the_node(tree, path):
    with pytest.raises(ui.UITreeError) as caught:
        ui.validate(tree)
    assert caught.value.path == path
    assert path in str(caught.value)


def test_element_count_includes_items_actions_and_options():
    tree = ui.column([
        ui.list("l", [ui.item(str(i), "t", actions=[ui.action("a"), ui.action("b")]) for i in range(3)]),
        ui.choice("c", [ui.option("x", "X"), ui.option("y", "Y")]),
    ])
    assert ui.count_elements(tree) == 1 + 1 + 3 * 3 + 1 + 2


def test_more_than_2000_elements_is_refused():
    ok = ui.column([ui.list("l", [ui.item(str(i), "t") for i in range(1998)])])
    assert ui.count_elements(ok) == 2000
    too_many = ui.column([ui.list("l", [ui.item(str(i), "t") for i in range(1999)])])
    with pytest.raises(ui.UITreeError, match="more than 2000"):
        ui.validate(too_many)


def test_depth_over_12_is_refused():
    tree = ui.text("leaf")
    for _ in range(12):
        tree = ui.column([tree])
    ui.validate(tree)  # 12 levels below the root is the limit
    with pytest.raises(ui.UITreeError, match="deeper than 12"):
        ui.validate(ui.column([tree]))


def test_long_texts_are_cut_like_the_host_does():
    prepared = ui.prepare(ui.column([ui.text("x" * 25000)]))
    assert len(prepared["children"][0]["text"]) == 20001
    assert prepared["children"][0]["text"].endswith("…")


def test_find_and_texts_walk_items():
    tree = ui.column([ui.list("l", [ui.item("n1", "Note one", subtitle="folder")]), ui.button("b", "Go")])
    assert ui.find(tree, "n1")["title"] == "Note one"
    assert ui.texts(tree) == ["Note one", "folder", "Go"]
