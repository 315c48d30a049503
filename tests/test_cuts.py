"""Cutting markdown to a budget: never longer than asked, never leaving code open."""

from __future__ import annotations

import subprocess
import sys

from hypothesis import given
from hypothesis import strategies as st

from memcli.core.fences import open_fence
from memcli.retrieval.budgets import CUT_MARK, clip_lines, cut_to_budget
from memcli.retrieval.render import demote

LINES = st.lists(
    st.one_of(
        st.sampled_from(["```", "```bash", "~~~", "````", "# heading", "## sub", "   ```"]),
        st.text(alphabet="ab #`~\t", max_size=30),
    ),
    max_size=30,
)


@given(LINES, st.integers(min_value=1, max_value=400))
def test_a_clipped_text_fits_and_closes_its_code(lines: list[str], limit: int) -> None:
    text = "\n".join(lines)
    clipped = clip_lines(text, limit)
    assert len(clipped) <= limit
    if clipped != text:
        assert open_fence(clipped) == ""


@given(LINES, st.integers(min_value=0, max_value=400))
def test_the_last_cut_fits_and_its_mark_is_not_code(lines: list[str], budget: int) -> None:
    text = "\n".join(lines)
    cut = cut_to_budget(text, budget)
    assert len(cut) <= budget
    if cut != text and cut:
        assert cut.endswith(CUT_MARK) and open_fence(cut.removesuffix(CUT_MARK)) == ""


def test_a_cut_inside_code_closes_the_fence_it_opened() -> None:
    text = "Run:\n````sh\n" + "\n".join(f"make step{n}" for n in range(50)) + "\n````\nDone."
    assert clip_lines(text, 80).endswith("\n````\n…")
    assert cut_to_budget(text, 120).endswith(f"\n````{CUT_MARK}")


def test_demoting_leaves_code_alone() -> None:
    text = "# Title\n```sh\n# a comment\n```\n## Part\n~~~\n# still code\n~~~"
    assert demote(text, 2) == (
        "### Title\n```sh\n# a comment\n```\n#### Part\n~~~\n# still code\n~~~"
    )


def test_a_fence_is_closed_only_by_its_own_kind() -> None:
    assert open_fence("```\ncode\n~~~") == "```"
    assert open_fence("````\ncode\n```") == "````"  # shorter: still code
    assert open_fence("```\ncode\n```` ") == ""
    assert open_fence("``` not `a fence`") == ""  # an info string with a backtick: text


def test_a_fence_in_a_list_item_is_closed_in_the_item() -> None:
    """Closed at column 0, the fence would end the list item and open a code block of
    its own, taking the mark and all after it."""
    item = (
        "- [01] pattern: Restarts\n  Restart in order:\n  ```sh\n" + "  systemctl restart api\n" * 9
    )
    assert open_fence(item) == "  ```"
    assert cut_to_budget(item, 150).endswith(f"\n  ```{CUT_MARK}")
    assert clip_lines(item, 120).endswith("\n  ```\n…")


def test_cutting_a_huge_text_full_of_lines_takes_one_pass() -> None:
    """Stepping back line by line once re-read the whole text at each step: 40,000
    lines behind an open fence took half a minute."""
    script = (
        "from memcli.retrieval.budgets import clip_lines, cut_to_budget\n"
        "text = '`' * 20000 + '\\n' + 'a\\n' * 40000\n"
        "cut_to_budget(text, 40000); clip_lines(text, 40000)\n"
    )
    subprocess.run([sys.executable, "-c", script], check=True, timeout=20)
