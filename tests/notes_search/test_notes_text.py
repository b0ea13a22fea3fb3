"""Unit tests for the text pipeline, front matter and query parsing."""

from hypothesis import given
from hypothesis import strategies as st
from notes_search.frontmatter import inline_tags, read_meta, split_front_matter
from notes_search.query import TagFilter, Term, parse_query
from notes_search.tokens import cjk_bigrams, fold, fold_with_offsets, light_stem, tokens


def test_fold_handles_width_case_and_latin_diacritics():
    assert fold("ＡＢＣ１２３") == "abc123"
    assert fold("ｶﾀｶﾅ") == "カタカナ"
    assert fold("Crème Brûlée") == "creme brulee"
    assert fold("Straße") == "strasse"
    # Kana keep their voicing marks and Hangul stays composed.
    assert fold("がぎ") == "がぎ"
    assert fold("회의") == "회의"


def test_tokens_split_cjk_into_bigrams_with_trailing_char():
    assert tokens(fold("明日の会議は東京")) == ["明日", "日の", "の会", "会議", "議は", "は東", "東京", "京"]
    assert tokens("会議", for_query=True) == ["会議"]
    assert tokens("全文検索", for_query=True) == ["全文", "文検", "検索"]
    assert tokens("notes_search e-mail v2") == ["notes", "search", "e", "mail", "v2"]
    assert tokens("abc会議def") == ["abc", "会議", "議", "def"]
    assert cjk_bigrams("字") == ["字"]


def test_light_stem_maps_inflections_together():
    for group in (
        ["run", "runs", "running"],
        ["index", "indexes", "indexed", "indexing"],
        ["meeting", "meetings"],
        ["story", "stories"],
        ["release", "released", "releases"],
    ):
        assert len({light_stem(word) for word in group}) == 1, group
    assert light_stem("status") == "status"
    assert light_stem("analysis") == "analysis"


@given(st.text(max_size=60))
def test_fold_with_offsets_maps_back_into_the_original(text):
    folded, offsets = fold_with_offsets(text)
    assert folded == fold(text) or not text.isascii()
    assert len(offsets) == len(folded) + 1
    assert list(offsets) == sorted(offsets)
    assert all(0 <= o <= len(text) for o in offsets)


@given(st.text(max_size=200))
def test_parse_query_never_raises(text):
    parsed = parse_query(text)
    assert len(parsed.terms) <= 16


def test_front_matter_title_tags_aliases_and_locked():
    text = (
        "---\ntitle: \"Project Plan\"\ntags: [work, 'q3']\naliases:\n  - Roadmap\n  - The plan\n"
        "locked: yes\nagent: Codex\n---\n# Heading\nBody with #inline-tag and #日本語タグ.\n"
    )
    front, body = split_front_matter(text)
    meta = read_meta(front, body, "file")
    assert meta.title == "Project Plan"
    assert meta.tags == ("work", "q3", "inline-tag", "日本語タグ")
    assert meta.aliases == ("Roadmap", "The plan")
    assert meta.locked is True
    assert meta.agent == "codex"
    assert body.startswith("# Heading")


def test_titles_fall_back_to_heading_file_name_or_first_line():
    assert read_meta({}, "\n# Trip to Kyoto\ntext", "x").title == "Trip to Kyoto"
    assert read_meta({}, "just words here", "shopping").title == "shopping"
    # Generated names (Cosmica's timestamps) say nothing: use the first line.
    assert read_meta({}, "- call the **bank**\nmore", "20250101-093000-ab12").title == "call the bank"
    assert read_meta({"tags": "#a, #b"}, "", "n").tags == ("a", "b")


def test_unterminated_front_matter_is_body():
    front, body = split_front_matter("---\ntitle: x\nno end")
    assert front == {} and body.startswith("---")


def test_inline_tags_ignore_headings_and_code():
    body = "# Heading\n```\n#notatag\n```\nText #real and a#not and #12 too\n"
    assert inline_tags(body) == ["real"]


def test_parse_query_terms_filters_and_prefix():
    parsed = parse_query('Meet "release plan" tag:Work in:projects/2024 #urgent 会議 ru')
    assert parsed.terms == (
        Term("word", ("meet",)),
        Term("phrase", ("release", "plan")),
        Term("word", ("会議",)),
        Term("prefix", ("ru",)),
    )
    assert parsed.tags == (TagFilter("work"), TagFilter("urgent"))
    assert parsed.folders == ("projects/2024",)


def test_parse_query_prefix_rules():
    assert parse_query("r").terms == (Term("word", ("r",)),)  # prefixes start at 2 letters
    assert parse_query("run ").terms == (Term("word", ("run",)),)  # a space ends the word
    assert parse_query("東").terms == (Term("prefix", ("東",)),)
    assert parse_query('"quick bro').terms == (Term("phrase", ("quick", "bro"), prefix_last=True),)
    assert parse_query("全文検索").terms == (Term("phrase", ("全文", "文検", "検索")),)
    assert parse_query("tag:wo").tags == (TagFilter("wo", prefix=True),)
    assert parse_query("in:../..").folders == ()
    assert parse_query("").is_empty and parse_query("tag:x").is_empty


@given(st.text(max_size=300))
def test_front_matter_and_meta_never_raise(text):
    front, body = split_front_matter(text)
    meta = read_meta(front, body, "name")
    assert meta.title
    assert all(tag and "#" not in tag[:1] for tag in meta.tags)


def test_every_language_has_every_message_with_the_same_placeholders():
    import string

    from notes_search.text import TEXT

    def fields(template):
        return {name for _, name, _, _ in string.Formatter().parse(template) if name}

    english = TEXT.catalogs["en"]
    for language, catalog in TEXT.catalogs.items():
        assert set(catalog) == set(english), language
        for key, template in english.items():
            assert fields(catalog[key]) == fields(template), (language, key)
