"""Words a prompt is full of that say nothing about which memory it wants.

The English list is the usual function words (articles, pronouns, auxiliaries,
prepositions, conjunctions, their contractions) plus the filler of requests made to
an agent ("please", "can you", "help me", "tell me about"). Words that name what a
memory is about ("error", "slow", "test", "file") are never here.
"""

from __future__ import annotations

ENGLISH = frozenset(
    """
    a about above after again against ago all almost also although always am among an and
    another any anybody anyhow anyone anything anyway anywhere are aren't around as at be
    became because become been before being below beside besides between beyond both but by
    can can't cannot could couldn't did didn't do does doesn't doing don't done down during
    each either else elsewhere enough etc even ever every everyone everything except few for
    from further had hadn't has hasn't have haven't having he he'd he'll he's her here here's
    hers herself him himself his how how's however i i'd i'll i'm i've if in indeed instead
    into is isn't it it'd it'll it's its itself just least less let let's lets may maybe me
    might mine more most much must mustn't my myself neither never nevertheless no nobody none
    nor not nothing now of off often on once one ones only onto or other others otherwise ought
    our ours ourselves out over own per perhaps quite rather really same several shall shan't
    she she'd she'll she's should shouldn't since so some somebody somehow someone something
    sometimes somewhere still such than that that's the their theirs them themselves then
    there there's therefore these they they'd they'll they're they've this those though
    through thus to together too toward towards under unless until up upon us very via was
    wasn't we we'd we'll we're we've were weren't what what's whatever when when's whenever
    where where's whereas wherever whether which while who who's whoever whole whom whose why
    why's will with within without won't would wouldn't yet you you'd you'll you're you've
    your yours yourself yourselves
    please pls thanks thank thx hey hi hello ok okay yes yeah yep sure
    want wanted wants need needs needed like would've could've should've
    tell show give help try let know think guess wonder remember recall mind
    get gets got getting make makes made making use using used
    thing things stuff something anything way kind sort lot lots bit
    again actually basically just also still already
    """.split()
)
"""The default list (``[search] stop_words = "english"``)."""


def stop_words(settings: dict[str, object]) -> frozenset[str]:
    """The words dropped from queries under the ``[search]`` settings of mem.toml."""
    chosen = settings.get("stop_words", "english")
    base: frozenset[str]
    if chosen == "english":
        base = ENGLISH
    elif chosen == "none":
        base = frozenset()
    else:
        assert isinstance(chosen, list)
        base = frozenset(chosen)
    extra = settings.get("extra_stop_words") or []
    assert isinstance(extra, list)
    return base | frozenset(extra)
