"""Near-duplicates merged into a keeper that supersedes them, in one commit (``mem dedupe``)."""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING

from memcli.core import journal
from memcli.core.errors import InvalidInput, SecretsFound
from memcli.core.timeutil import format_timestamp, now
from memcli.service.screening import new_secrets
from memcli.service.writer import SaveResult

if TYPE_CHECKING:
    from memcli.core.model import Observation
    from memcli.index import Entry
    from memcli.service.memory import Memory
    from memcli.service.writer import Writer


def merge(
    writer: Writer,
    keeper: Entry,
    others: list[Entry],
    merge: Callable[[Observation, list[Observation]], tuple[Observation, str]],
) -> SaveResult:
    """Merge ``others`` into ``keeper`` in one commit (``merge: N memories``).

    ``merge`` makes the merged keeper from the memories as they are under the
    lock, and says how (a line of the commit message). The keeper alone is
    written: it supersedes the others, which stay as they are. Under the lock,
    a memory changed, removed or superseded since the cluster was found is left
    out (another merge got there first): with the keeper or every other left
    out, nothing is written (action ``unchanged``, no commit).
    """
    from memcli.core.model import Observation
    from memcli.core.model import without_private as visible_part
    from memcli.core.secrets import report
    from memcli.service.supersede import check_no_cycle

    memory = writer.memory
    with writer.transaction():
        memory.refresh_index()
        current = still_as_found(memory, [keeper, *others])
        if not current or current[0].id != keeper.id or len(current) < 2:
            where = memory.read(lambda index: index.path_of(keeper.id))
            return SaveResult(memory.load_or_stub(keeper), where or "", "unchanged", None)
        records = [memory.load(entry) for entry in current]
        if not all(isinstance(r, Observation) for r in records):
            raise InvalidInput("only memories are merged, not session summaries")
        kept, *rest = (r for r in records if isinstance(r, Observation))
        merged, how = merge(kept, rest)
        replaced = [o.id for o in rest]
        check_no_cycle(memory, kept.id, replaced)
        merged = merged.replace(
            id=kept.id,
            supersedes=list(dict.fromkeys([*kept.supersedes, *replaced])),
            updated=format_timestamp(now()),
        )
        visible = visible_part(merged)
        merged = visible if isinstance(visible, Observation) else merged
        found = new_secrets(merged, [kept, *rest])
        if found:
            raise SecretsFound(f"the merge would add likely secrets: {report(found)}")
        message = journal.commit_message("merge", [merged, *rest])
        subject, _, body = message.partition("\n\n")
        message = f"{subject}\n\nInto {kept.id}; {how}\n\n{body}"
        path = memory.resolve(kept.id).path
        commit = writer.commit_files({path: merged.to_markdown()}, [], message)
        return SaveResult(merged, path, "merged", commit)


def still_as_found(memory: Memory, entries: list[Entry]) -> list[Entry]:
    """Those of ``entries`` still current as they were found: present, unchanged and
    superseded by nothing (a merge re-checks its cluster under the lock)."""
    from memcli.core.errors import NotFound

    current = []
    for entry in entries:
        try:
            now_entry = memory.resolve(entry.id)
        except NotFound:
            continue
        if now_entry.updated != entry.updated:
            continue
        if _superseded(memory, entry.id):
            continue
        current.append(now_entry)
    return current


def _superseded(memory: Memory, identity: str) -> bool:
    return bool(memory.read(lambda index: index.replacing(identity)))
