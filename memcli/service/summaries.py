"""A session summary made from its sections: cleaned, screened, rendered.

``mem summarize``, the PostCompact hook and the SessionEnd capture give sections
(request, investigated, learned, completed, next steps) and/or free text. The
sections are kept in the frontmatter; the body is the free text (without a
first line that is the title) rendered through ``compaction.md.j2`` (the
store's own template when it has one that renders). Provenance (``agent``,
``project_commit``) comes among the extra frontmatter keys and is checked and
stored as the summary's own fields.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from pathlib import Path
from typing import TYPE_CHECKING

from memcli.core.ids import new_ulid
from memcli.core.timeutil import format_timestamp, now
from memcli.service.screening import screen

if TYPE_CHECKING:
    from memcli.core.model import Summary
    from memcli.core.secrets import Policy


class SummaryInput:
    """What was given for a summary, private spans removed and secrets dealt with.

    Refuses likely secrets (by ``secrets``) and an empty summary before the
    store is touched.
    """

    def __init__(
        self,
        sections: Mapping[str, object],
        title: str | None,
        session: str | None,
        text: str,
        secrets: Policy,
    ) -> None:
        from memcli.core.errors import InvalidInput
        from memcli.core.model import SUMMARY_FIELDS
        from memcli.core.validate import (
            clean_narrative,
            clean_section,
            clean_session,
            strip_private,
        )

        cleaned = {name: clean_section(sections.get(name), name) for name in SUMMARY_FIELDS}
        text = clean_narrative(strip_private(text))
        session = clean_session(strip_private(session or ""))
        given = {**cleaned, "title": title, "text": text, "session": session}
        kept = screen(given, [], secrets)
        self.title: str | None = kept.pop("title")
        self.text: str = kept.pop("text")
        self.session: str | None = kept.pop("session")
        self.sections: dict[str, str | None] = kept
        self.secrets = secrets
        if not any(self.sections.values()) and not self.text:
            raise InvalidInput(
                "nothing to summarize: give --request, --investigated, --learned, --completed "
                "or --next-steps (or a JSON object on stdin)"
            )

    def summary(self, root: Path, extra: dict[str, str], notify: Callable[[str], None]) -> Summary:
        """A new summary (new id, created now), its body rendered by the store at ``root``."""
        from memcli.core.model import Summary, without_private
        from memcli.core.titles import summary_title
        from memcli.core.validate import check_agent, check_commit, clean_narrative, strip_private
        from memcli.service.screening import screened

        cleaned = self.sections
        extra = dict(extra)  # provenance given among the extra keys becomes its own fields
        agent = check_agent(extra.pop("agent", None))
        project_commit = check_commit(extra.pop("project_commit", None))
        summary = Summary(
            id=new_ulid(),
            title=summary_title(
                {**cleaned, "learned": cleaned["learned"] or self.text}, self.title
            ),
            created=format_timestamp(now()),
            session=self.session,
            request=cleaned["request"],
            investigated=cleaned["investigated"],
            learned=cleaned["learned"],
            completed=cleaned["completed"],
            next_steps=cleaned["next_steps"],
            agent=agent,
            project_commit=project_commit,
            extra=extra,
        )
        body = _rendered(summary, _without_title(self.text, summary.title), root, notify)
        summary.narrative = clean_narrative(strip_private(body))
        visible = without_private(summary)
        assert isinstance(visible, Summary)
        # Every field once more, as stored: a template can add text of its own, and
        # the extra keys and the agent were not given to the constructor.
        return screened(visible, None, self.secrets)


def _without_title(text: str, title: str) -> str:
    """``text`` without a first line that only repeats the title (taken from it)."""
    lines = text.strip().splitlines()
    if lines and lines[0].strip().lstrip("#").strip().rstrip(".") == title.rstrip("."):
        return "\n".join(lines[1:]).strip()
    return text


def _rendered(summary: Summary, text: str, root: Path, notify: Callable[[str], None]) -> str:
    """``compaction.md.j2``: the store's own if it renders, else the built-in one."""
    from memcli.core.errors import MemError
    from memcli.core.serialize import record_dict
    from memcli.retrieval.render import Renderer

    variables = {"summary": record_dict(summary), "text": text}
    try:
        return Renderer(root).render("compaction.md.j2", **variables)
    except MemError as exc:  # the store's template: the summary is kept all the same
        notify(f"{exc}; the summary was rendered with the built-in template")
        return Renderer(None).render("compaction.md.j2", **variables)
