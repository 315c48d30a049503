"""The chat-host memory plugin, driven from asyncio as a host drives it."""

from __future__ import annotations

import asyncio
import json
from pathlib import Path
from typing import Any

import pytest
from hypothesis import assume, given, settings
from hypothesis import strategies as st

from memcli import InvalidInput, MemError, StoreError
from memcli.adapters.plugin import FIELDS, MemoryPlugin
from memcli.core.validate import clean_narrative
from tests.conftest import git, mem_json


def run(coroutine: Any) -> Any:
    return asyncio.run(coroutine)


def test_a_host_session(tmp_path: Path) -> None:
    root = tmp_path / "groups"

    async def session() -> None:
        plugin = MemoryPlugin(root)
        await plugin.init()
        saved = await asyncio.gather(
            *[
                plugin.save("team-a", f"fact-{n}", f"The build cache lives in bucket {n}")
                for n in range(4)
            ],
            plugin.save("team-b", "fav-color", "The favourite colour is blue", "preference"),
            asyncio.to_thread(
                asyncio.run, plugin.save("team-a", "deploy-day", "Deploys go out on Tuesdays")
            ),
        )
        assert [s["status"] for s in saved] == ["created"] * 6
        again = await plugin.save("team-a", "fact-0", "The build cache moved to bucket 9")
        assert again["status"] == "updated" and again["id"] == saved[0]["id"]
        assert (await plugin.save("team-a", "fact-0", "The build cache moved to bucket 9"))[
            "status"
        ] == "unchanged"

        hits = await plugin.recall("team-a", "where is the build cache?", limit=10)
        assert {f"fact-{n}" for n in range(4)} <= {h["key"] for h in hits}
        assert "bucket 9" in next(h["content"] for h in hits if h["key"] == "fact-0")
        assert hits[0]["category"] == "discovery" and hits[0]["score"] is not None

        keys = await plugin.list_keys("team-a")
        assert sorted(k["key"] for k in keys) == ["deploy-day", *(f"fact-{n}" for n in range(4))]
        assert await plugin.list_keys("team-a", "preference") == []

        assert (await plugin.forget("team-a", "fact-1"))["removed"] is True
        assert (await plugin.forget("team-a", "fact-1"))["removed"] is False
        assert (await plugin.forget("team-a", saved[2]["id"][:6]))["removed"] is False
        assert (await plugin.forget("team-a", saved[2]["id"]))["removed"] is False
        assert len(await plugin.list_keys("team-a")) == 4
        await plugin.close()
        with pytest.raises(StoreError, match="await init"):
            await plugin.list_keys("team-a")

    run(session())
    # One store per folder, each a git repository mem itself can read.
    assert sorted(p.name for p in root.iterdir()) == ["team-a", "team-b"]
    assert "forget: " in git(root / "team-a", "log", "-1", "--format=%s")
    listed = mem_json("list", "--keys", "--store", str(root / "team-b"))
    assert [(m["key"], m["type"]) for m in listed] == [("fav-color", "preference")]


def test_folders_are_isolated(tmp_path: Path) -> None:
    async def session() -> None:
        plugin = MemoryPlugin(tmp_path / "groups")
        await plugin.init()
        await plugin.save("alpha", "secret-plan", "The launch is on Friday")
        assert await plugin.recall("beta", "launch Friday") == []
        assert await plugin.list_keys("beta") == []
        assert (await plugin.forget("beta", "secret-plan"))["removed"] is False
        assert [h["key"] for h in await plugin.recall("alpha", "launch Friday")] == ["secret-plan"]
        await plugin.close()

    run(session())
    assert [p.name for p in (tmp_path / "groups").iterdir()] == ["alpha"]


def test_the_store_is_mem_home_project_by_default(tmp_path: Path) -> None:
    async def session() -> None:
        plugin = MemoryPlugin()
        await plugin.init()
        await plugin.save("main", "deploy-day", "Deploys go out on Tuesdays", "decision")
        await plugin.close()

    run(session())
    listed = mem_json("list", "--project", "main")
    assert [m["key"] for m in listed] == ["deploy-day"]


@pytest.mark.parametrize(
    "folder",
    ["../x", "/abs", "a/b", "", "a\x00b", ".", "..", "..\\x", " x", "x" * 101, 7, None],
    ids=repr,
)
def test_hostile_group_folders_are_refused(tmp_path: Path, folder: Any) -> None:
    async def session() -> None:
        plugin = MemoryPlugin(tmp_path / "groups")
        await plugin.init()
        for call in (
            plugin.save(folder, "k", "text"),
            plugin.recall(folder, "text"),
            plugin.forget(folder, "k"),
            plugin.list_keys(folder),
        ):
            with pytest.raises(InvalidInput, match="group folder"):
                await call
        await plugin.close()

    run(session())
    assert list((tmp_path / "groups").iterdir()) == []
    assert sorted(p.name for p in tmp_path.iterdir()) == ["groups", "home"]


def test_categories_are_mem_types(tmp_path: Path) -> None:
    async def session() -> None:
        plugin = MemoryPlugin(tmp_path / "groups")
        await plugin.init()
        with pytest.raises(InvalidInput, match="category: unknown type 'notes': use one of pref"):
            await plugin.save("g", "k", "text", "notes")
        with pytest.raises(InvalidInput, match="unknown type 'notes'"):
            await plugin.recall("g", "text", "notes")
        await plugin.save("g", "plain", "Uploads fail after a minute")  # the host's "core"
        await plugin.save("g", "choice", "We chose Postgres for uploads", "decision")
        await plugin.save("g", "plain", "Uploads fail after sixty seconds", None)
        kinds = {k["key"]: k["category"] for k in await plugin.list_keys("g", "core")}
        assert kinds == {"plain": "discovery", "choice": "decision"}
        hits = await plugin.recall("g", "uploads", "decision")
        assert [h["key"] for h in hits] == ["choice"]
        with pytest.raises(InvalidInput, match="invalid key"):
            await plugin.save("g", "no spaces allowed", "text")
        with pytest.raises(InvalidInput, match="a key is required"):
            await plugin.save("g", "", "text")
        await plugin.close()

    run(session())


def test_metadata_maps_to_fields_and_keeps_the_rest(tmp_path: Path) -> None:
    async def session() -> None:
        plugin = MemoryPlugin(tmp_path / "groups")
        await plugin.init()
        metadata = {
            "facts": ["retry twice"],
            "concepts": ["uploads"],
            "files": ["src/upload.py"],
            "importance": 0.8,
            "channel": "slack",
            "thread": {"id": 12, "tags": ["a", "b"]},
        }
        await plugin.save("g", "upload-retry", "Uploads retry twice", "pattern", metadata)
        [hit] = await plugin.recall("g", "uploads retry")
        assert hit["content"] == "Uploads retry twice"
        assert hit["metadata"] == metadata
        with pytest.raises(MemError, match="refusing to store likely secrets"):
            await plugin.save("g", "leak", "harmless", None, {"token": "ghp_" + "x1Y2" * 9})
        with pytest.raises(InvalidInput, match="metadata must be an object"):
            await plugin.save("g", "bad", "text", None, ["not", "a", "dict"])  # type: ignore[arg-type]
        with pytest.raises(InvalidInput, match="plain JSON values"):
            await plugin.save("g", "bad", "text", None, {"when": object()})
        assert [k["key"] for k in await plugin.list_keys("g")] == ["upload-retry"]
        await plugin.close()

    run(session())
    record = mem_json("show", "upload-retry", "--store", str(tmp_path / "groups" / "g"))[0]
    assert record["facts"] == ["retry twice"] and record["type"] == "pattern"
    assert '"channel": "slack"' in record["narrative"]


def test_calls_before_init_are_refused(tmp_path: Path) -> None:
    with pytest.raises(StoreError, match="not initialised"):
        run(MemoryPlugin(tmp_path).save("g", "k", "text"))


TEXT = st.text(st.characters(blacklist_categories=("Cs",), blacklist_characters="\x00\r"))
JSON = st.recursive(
    st.none() | st.booleans() | st.integers(-(10**6), 10**6) | TEXT,
    lambda inner: st.lists(inner, max_size=3) | st.dictionaries(TEXT, inner, max_size=3),
    max_leaves=6,
)


def test_content_and_metadata_come_back_as_saved(tmp_path: Path) -> None:
    """Whatever the content holds (a fence, a JSON block of its own), recall splits it right."""
    plugin = MemoryPlugin(tmp_path / "groups")
    run(plugin.init())
    fence = "```mem-metadata\n"
    content = st.one_of(
        TEXT, st.builds("".join, st.lists(st.sampled_from(["a", "\n", fence, '{"x": 1}', "```"])))
    ).map(lambda text: f"Upload note {text}")
    extra = st.dictionaries(TEXT.filter(lambda k: k not in FIELDS), JSON, max_size=3)

    @settings(max_examples=15, deadline=None, database=None)
    @given(content=content, extra=extra)
    def check(content: str, extra: dict[str, Any]) -> None:
        assume("<private>" not in content.lower() + json.dumps(extra).lower())
        run(plugin.save("g", "note", content, None, extra))
        [found] = [
            h for h in run(plugin.recall("g", "upload note", limit=50)) if h["key"] == "note"
        ]
        assert found["content"] == clean_narrative(content)
        assert found["metadata"] == extra

    check()
    run(plugin.close())
