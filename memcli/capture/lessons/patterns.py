"""The words that mark a lesson, and those that mark small talk and narration.

Every pattern is matched against one sentence (``text.sentences``), case-insensitively.
"""

from __future__ import annotations

import re

_I = re.IGNORECASE


class Gated:
    """A pattern tried only on text holding one of its keys (a quick substring test):
    a long alternation of words costs far more than that on the many sentences it misses.
    Every alternative of the pattern must hold one of the keys, lower-cased."""

    __slots__ = ("keys", "pattern")

    def __init__(self, pattern: str, *keys: str) -> None:
        self.pattern = re.compile(pattern, _I)
        self.keys = keys

    def search(self, text: str) -> re.Match[str] | None:
        low = text.lower()
        if not any(key in low for key in self.keys):
            return None
        return self.pattern.search(text)


# ---- the user's rules and corrections ----------------------------------------------

LEAD_IN = re.compile(
    r"^(?:(?:also|and|but|so|oh|ok|okay|one more thing|btw|by the way|fyi|please|pls|"
    r"from now on|going forward|in future|in the future|for future reference|remember|"
    r"just so you know|heads up|note|important|here|next time|in general|generally|as a rule|"
    r"(?:a |the |one |new )?rule(?: (?:for|in) [^:,]{1,40})?(?=\s*:)|"
    r"(?:in|for|across) (?:this|the whole|our) (?:repo|project|codebase|app|service))"
    r"\b[\s,:;-]*)+",
    _I,
)
"""What may come before a rule's imperative: "Also, from now on, never …"."""

RULE_START = re.compile(
    r"^(?:always|never|don'?t|do not|avoid|prefer|stop|remember to|be sure to|"
    r"make sure (?:to )?(?:always|never)|only (?:use|run|call|import|edit|write|commit|push))\b",
    _I,
)
"""A sentence that is a rule from its first word (after a lead-in)."""

NONE_IN = re.compile(r"^no (?:\S+ ){1,4}(?:in|inside|under|within)\b", _I)
"""A clause "no X in Y": a rule beside an instruction ("use the tokens, no raw hex in
components"), else most often a report ("no errors in the log")."""

RULE_ANYWHERE = Gated(
    r"\bwe (?:always|never|only|use|don'?t|do not|prefer|stick to|follow|keep|put|write|"
    r"name|run|pin|avoid|require|treat)\b"
    r"|\bour (?:convention|style|rule|standard|policy|team)\b"
    r"|\bthe (?:convention|rule|policy|house style) (?:is|here)\b"
    r"|\b(?:should|must|need to|has to|have to) (?:always|never)\b"
    r"|\bmust (?!be\b|have\b|'ve\b)[a-z]+"  # "DEFMT_LOG must stay at info"
    r"|^(?:every|all|any|each) (?:\S+ ){1,4}(?:must|should|has to|have to|needs? to)\b"
    r"|\b(?:should|must) not\b|\bmustn'?t\b|\bshouldn'?t\b"
    r"|\b(?:is|are) not allowed\b|\bnot allowed to\b"
    r"|\bi (?:always )?(?:prefer|want you to)\b|\bi(?:'d| would) rather\b"
    r"|\buse \S+(?: \S+){0,3} (?:instead|rather than|over)\b"
    r"|\binstead of\b|\brather than\b|\bprefer\b"
    # "when you add tests put them in test/parser/ with alcotest, not inline ppx_expect"
    r"|(?:^|\band |\bso )when (?:you|we) (?!(?:'re|are|can|could|want|get|have|run|try|see|look)"
    r"\b)[a-z]+\b[^.?]*?(?:, not\b|\binstead\b|\balways\b|\bnever\b|\bonly\b)"
    r"|^use\b[^.?]*?,? (?:not|never)\b"
    r"|^(?:on|in|for) (?:\S+ ){0,2}\S+,? (?:always|never)\b"  # "on prod always run …"
    r"|^(?!(?:go|let'?s|can|could|would|will|please|pls|then|and|just|you|u)\b)"
    r"(?:\S+ ){0,5}(?!(?:you|u|to|then|and|please|will|can|could|would)\b)\S+ "
    r"(?:always |only )?(?:goes|go|lives?|belongs?) "
    r"(?:in|into|under|through|to|next to|beside|inside|alongside)\b"
    r"|\b(?:nobody|no one|no-one) (?:ever )?[a-z]+s\b"
    # "in this gem nothing mutates an argument", "nothing writes to stdout, ever"
    r"|\bin (?:this|our) (?:gem|repo|repository|codebase|project|app|library|lib|crate|package|"
    r"module|service|team|code)\b[^.]*?\b(?:nothing|nobody|no one|no-one)\b"
    r"|\b(?:nothing|nobody|no one|no-one)\b[^.]*,? ever\b",
    "nothing",
    "always",
    "never",
    "goes ",
    "go ",
    "live",
    "belong",
    "nobody",
    "no one",
    "no-one",
    "we ",
    "our ",
    "convention",
    "rule",
    "policy",
    "house style",
    "should",
    "must",
    "need to",
    "has to",
    "have to",
    "not allowed",
    "i ",
    "i'd",
    "use ",
    "instead of",
    "rather than",
    "prefer",
    "every",
    "when ",
    "all ",
    "any ",
    "each ",
)
"""A rule said in the middle of a sentence."""

RULE_SCOPED = Gated(
    r"(?:^|[,;:.!—–]\s*|\b(?:so|and|but|since|because)\s+)"
    r"(?:every|everything|anything|everyone|anyone|all|any|each)\b"
    r"(?:\s+\S+){0,5}?\s+(?:must|has to|have to|needs?\b|goes|go|belongs?|lives?"
    r"|(?:is|are) [^,;:.]{1,40}, (?:never|not)\b)"
    r"|^no\b(?:\s+\S+){1,6}?\s+(?:in|across|throughout|anywhere in) (?:this|our) "
    r"(?:codebase|code|repo|repository|project|app|team|service)\b"
    r"|^(?:the |our |all )?(?:\S+ ){0,2}\S+s never (?!(?:pass|work|finish|run|load|show|start|"
    r"build|compile|happen|fire|complete|succeed|return|end|stop|arrive|appear|reach|match|change|"
    r"seem|get|got|come|go)\b)[a-z]+(?<!s)(?<!ed)\b"
    r"|\bonly\b(?:\s+\S+){0,4}?\s+(?:in|across|throughout) (?:this|our) "
    r"(?:codebase|code|repo|repository|project|app|team|service)\b"
    r"|\S+ only (?:in|across|throughout) (?:this|our) "
    r"(?:codebase|code|repo|repository|project|app|team|service)\b"
    # "every query we commit sets a query_tag so we can trace the spend"
    r"|^(?:every|everything|all|each|any)\b[^.;?]*\bso (?:that )?(?:we|you|they|nobody|no one|"
    r"anyone) (?:can|could|know|see|never|always)\b(?!'t)"
    # "all procs in this db get schema-qualified names", "every script starts with …"
    r"|^(?:all|every|each|any)\b[^.;?]{0,60}\b(?:in|across) (?:this|our|the) (?:codebase|code|repo|"
    r"repository|project|app|team|service|db|database|house|cluster|org|company|lab|shop|"
    r"monorepo|workspace)\b"
    r"|^(?:every|all|each) \S+(?: \S+){0,2} (?:starts?|begins?|uses?|has|have|sets?|sources?|"
    r"imports?|extends?|ends?|lives?|pins?|gets? pinned|is pinned|are pinned)\b"
    r"|\bno \S+(?: \S+){0,3} anywhere\b"  # "no Await anywhere in actor code, period"
    # "everything we register, hooks, options, functions, gets the fernleaf_ prefix"
    r"|(?:^|: )(?:everything|anything) (?:we|you) \w+\b[^.;?]{0,80}\b(?:gets?|has|have|uses?|"
    r"starts?|goes|needs?)\b"
    # "every motion automation in this house runs in restart mode, otherwise …"
    r"|^(?:every|all|each|any)\b[^.;?]*,? (?:otherwise|or else)\b"
    r"|\bwe (?!now\b|just\b|had\b|did\b|went\b|were\b|got\b)[a-z]+ \S+(?: \S+){0,4} "
    r"(?:in|across|for|on) (?:every|all|each)\b",
    "every",
    "all ",
    "any",
    "each ",
    "only",
    "we ",
    "no ",
    "never",
    "everything",
    "anything",
)
"""A rule by its scope: what every X must do or where any X goes, what is done "only in
this codebase", what "we" do in every X."""

STANDING_RULE = re.compile(
    r"\b(?:from now(?: on)?|going forward|from here on(?: out)?)\b"
    r"|^(?:\w+,? )?(?:a |the |one |new )?rule(?: (?:for|in) (?:this|our|the) [\w-]+)?\s*:"
    r"|\b(?:whenever|every time|each time) (?:you|we|someone|anyone) "
    r"(?!(?:'re|are|can|could|want|wanna|like|get|have|feel|think)\b)[a-z]+\b[^.?]*?, [a-z]+ ",
    _I,
)
"""Words that make what the user says about the work a rule, whatever else it says."""

EVERY_TIME = re.compile(
    r"^(?!(?:it|this|that|these|those|the|a|an|i|we|they|he|she|you|u|there|my|our|its|your|"
    r"which|what|when|if|and|but|so|then|now|please|in|on|at|for|with|from|to|after|before|"
    r"since|during|all|every|each|some|any|no|not|is|are|was|were|one|basically|usually|"
    r"probably|apparently|actually|literally|mostly|typically|randomly|sometimes|often|again|"
    r"also|just|still|even|only)\b)[a-z]+(?<!s)(?<!ed)\b"
    r"[^.?]*\b(?:whenever|every time|each time)\b",
    _I,
)
"""An instruction for every time something happens ("regenerate it with opam lock
whenever deps change"), not a report ("the build breaks whenever …")."""

SCOPED = re.compile(
    r"\b(?:in|across|throughout|for) (?:this|our|the whole) (?:project|repo|repository|"
    r"codebase|code|app|service|team)\b|\beverywhere\b",
    _I,
)
"""Words that make an instruction hold for the whole project ("use Decimal everywhere")."""

NEWS = re.compile(r"\b(?:we|they|it) (?:now|just|recently)\b|\bas of (?:today|now)\b", _I)
"""What changed ("we now publish to PyPI"): a fact for a one-off task, not a rule."""

NOT_A_RULE = Gated(
    r"\bnever ?mind\b|\b(?:it|they) shouldn'?t\s*[.!]?$"  # "deleting files it shouldnt."
    r"|^(?:don'?t worry|don'?t forget|do not worry|no worries|stop here|"
    r"don'?t bother|don'?t know|i (?:don'?t|never) (?:know|remember|understand|mind|think)|"
    r"prefer not to say)\b"
    r"|\b(?:thanks|thank you|cheers|appreciate|lol|haha|weekend|coffee|lunch|dinner|"
    r"holiday|vacation|weather|movie|music|game|birthday|tired)\b",
    "don",
    "do not",
    "never",
    "shouldn",
    "no worries",
    "stop here",
    "i ",
    "prefer not",
    "thank",
    "cheers",
    "appreciate",
    "lol",
    "haha",
    "weekend",
    "coffee",
    "lunch",
    "dinner",
    "holiday",
    "vacation",
    "weather",
    "movie",
    "music",
    "game",
    "birthday",
    "tired",
)
"""Rule words in what is no rule: reassurance, a reminder for now, talk of one's life."""

NARRATIVE_START = re.compile(r"^(?:i|i'm|i've|i'd|i was|my|we went|yesterday|today)\b", _I)
"""A user's sentence about themself (mid-sentence rule words there are no rule)."""

CORRECTION_START = re.compile(
    # "whoa, please don't …" (an interjection first, not a yes: "works, no hang" is none)
    r"^(?:(?!(?:also|and|then|next|now|so|works|worked|good|great|perfect|nice|cool|thanks|thx|"
    r"ty|ok|okay|yes|yeah|yep|sure|fine|done|lgtm|awesome)\b)[a-z]+[,!]\s+)?"
    r"(?:(?:hm+|um+|uh+|ah+|oh|ugh|erm)\s+)?"  # "hm no, …"
    r"(?:no|nope|nah|not (?:that|like that|quite|this|there|what i|in|on|for|with|via|from|"
    r"inside|within|into|under|at|by|as|here|yet|before|after|during|through)|"
    r"wrong|incorrect|"
    r"that'?s (?:wrong|not|incorrect|the wrong)|this is (?:wrong|not)|that is (?:wrong|not)|"
    r"actually|wait|hold on|stop|undo|revert|(?:please|pls|plz),? (?:don'?t|no|not)|don'?t|"
    r"do not|"
    r"you (?:shouldn'?t|should not|should have|didn'?t|did not|broke|forgot|missed|used|"
    r"changed|removed|deleted|can'?t|cannot|need to)|"
    r"why did you|i (?:said|asked|told you|meant)|that'?s not what|instead|"
    r"it should|it shouldn'?t|it'?s not|it isn'?t|that won'?t|this won'?t|that breaks)\b"
    r"|^(?:(?:sure|ok|okay|yes|yeah|fine),? but )?"
    r"(?:use|switch to|go with|put|keep|call|run|write|move|make it)\b[^.?]*?,? "
    r"(?:not|never|instead of|rather than)\b"
    # "retries arent really the problem": the plan aims at the wrong thing
    r"|^[^.?!,]{0,40}?\b(?:isn'?t|aren'?t|is not|are not) (?:really |actually )?(?:the (?:problem|"
    r"issue|point|bottleneck)|needed|necessary)\b"
    # "hmm not pull-push on everything": the agent's way, refused
    r"|^(?:(?:hm+|um+|uh+|ah+|oh|nah|nope),?\s+)?not (?!sure\b|bad\b|yet\b|now\b|really\b|much\b|"
    r"too\b|a problem\b|an issue\b|at all\b|urgent\b|today\b|quite\b|exactly\b)[\w-]+ "
    r"(?:on|in|for|everywhere|here|there|across|with)\b"
    # "salting is overkill": the plan judged wrong
    r"|^[^.?!,]{0,40}?\b(?:is|are|'s|seems|sounds) (?:overkill|too (?:much|complex|complicated|"
    r"heavy|slow|risky|clever)|unnecessary|not needed|a bad idea|over-?engineered|not the way)\b"
    # "the 4095 part is right but please keep everything in volts": a fix turned in part
    r"|^[^.?!,]{0,60}?\b(?:is|are|was|'s) (?:right|fine|correct|ok|okay|good),? but "
    r"(?:(?:please|pls|just) )?(?:use|keep|put|leave|make|do|don'?t|never|always|move|stick)\b"
    # "Hmm, please load it on the server instead."
    r"|^(?:[a-z]+,?\s+)?(?:please|pls|just) [a-z]+\b[^?]*\binstead\b(?! of)",
    _I,
)
"""A user's message that turns the agent around starts like this."""

NOT_A_CORRECTION = re.compile(
    r"^(?:no (?:thanks|thank you|worries|problem|need|rush|that'?s (?:fine|good|all|it|great|ok))|"
    r"no,? (?:that'?s|it'?s) (?:fine|good|all|ok|okay|great|perfect)|no,? (?:go ahead|all good|"
    r"looks good|carry on|continue|keep going)|nope,? (?:that'?s|all) (?:it|good|fine)|"
    r"actually,? (?:that'?s|it'?s|looks) (?:fine|good|great|perfect))\b",
    _I,
)

DIRECTIVE = re.compile(
    r"\b(?:(?:please|pls|plz),? no|use|using|should|shouldn'?t|must|mustn'?t|need|needs|"
    r"has to|have to|instead|rather|"
    r"keep|put|only|always|never|don'?t|do not|not|won'?t|can'?t|wrong|revert|undo|remove|"
    r"leave|the (?:right|correct)|belongs?|lives?|goes|supposed to|expects?|required|requires|"
    r"standard|convention|policy|everywhere|the rule|stays?|remains?|the pattern|"
    r"like (?:every|all|the) other)\b"
    r"|\bno \S+(?: \S+){0,3},? (?:please|pls|plz)\b",  # "no @@ERROR checks please"
    _I,
)
"""A correction holds something to do or not to do."""

IMPERATIVE = re.compile(
    r"^(?:(?:please|just|then|so)\s+)?(?:use|put|keep|move|add|write|call|make|switch|store|do|"
    r"run|find|go|pass|set|leave|name|return|log|check|wrap|split|drop|remove|rename|revert|"
    r"undo|change|stick|follow|read|commit|push|import|test|mock|avoid|prefer|always|never|"
    r"don'?t|do not|stop)\b",
    _I,
)
"""A sentence that tells the agent what to do, from its first word."""

PURPOSE = re.compile(
    r"\b(?:so (?:that )?(?:we|you|it|they|the|nobody|no one)|because|otherwise|or else)\b", _I
)
"""What makes an instruction a rule and not a one-off request: the reason it holds."""

REDIRECT = re.compile(
    r"^(?:(?:please|just|then|so)\s+)?(?:use|switch|keep|put|move|stick|go with|leave|revert|"
    r"make (?:it|them|this|that) |"
    r"undo|drop|avoid|prefer|never|don'?t|do not|stop)\b",
    _I,
)
"""An instruction that turns the agent to another way (not "check" or "run": a request)."""

CONSEQUENCE = re.compile(
    r"\b(?:breaks?|fails?|won'?t work|doesn'?t work|crash(?:es)?|hides?|masks?|ignores?|"
    r"locks?|wipes?|loses?|leaks?|collides?|clash(?:es)?|(?:has|have) the same problem|"
    r"(?:is )?how we ended up|"
    r"ended up with|bit us|burned us|"
    r"(?:just|only) (?:hides|masks|moves|papers over))\b",
    _I,
)
"""A user's sentence saying what the agent's way does wrong."""

ACKNOWLEDGE = re.compile(
    r"^(?:(?:ok(?:ay)?|sure|right|understood)[,.!]?\s+)?"
    r"(?:will do|got it|noted|understood|i'?ll (?:remember|keep|use|stick|make sure|do)|"
    r"i will (?:remember|keep|use|stick|make sure|do))\b",
    _I,
)
"""An agent's reply that takes what the user said as an instruction."""

STANDING = re.compile(
    r"\b(?:from now on|going forward|in (?:the )?future|for future reference|"
    r"remember (?:to|that)|every time you|whenever you)\b",
    _I,
)
"""Words that make what the user says an instruction that stands, work or no work."""

# ---- the agent's notes and root causes ------------------------------------------------

NOTE = Gated(
    r"^(?:note|side ?note|nb|n\.b\.|gotcha|heads[- ]up|important|caveat|warning|tip|fyi|"
    r"one thing to (?:know|note|remember)|(?:one|a) (?:caveat|gotcha))"
    r"(?: (?:for|to|on|about|when|before|after|if|while|with|in|around) [^:]{1,50})?\s*[:,—–-]"
    r"|^note (?:for|to) [^:]{1,60}:"  # "Note for whoever changes it next: …"
    r"|^note (?:the|how|this|these|what) [^:]{1,60}:"  # "Note the generated SQL: …"
    r"|^before (?:this|it|you) (?:goes|go|ships?|deploys?|merges?|lands?)\b[^:]{0,40}:"
    r"|^(?:for later|for next time|for the future|for the record|"
    r"something to (?:keep in mind|know|remember)|the catch)\s*[:,—–-]"
    r"|\b(?:must|needs? to|has to|have to) be \w+ (?:with|along with|together with|whenever|"
    r"every time|each time)\b"  # "X has to be bumped with it"
    r"|\bnote that\b|\bworth (?:knowing|noting|remembering|keeping in mind)\b|\bkeep in mind\b"
    r"|\b(?:it'?s|it is) worth (?!it\b)\w+ing\b"  # "it's worth adding an expiry"
    r"|\b(?:want|wanted|like) to flag\b|\bworth flagging\b"  # "One thing I want to flag: …"
    r"|\bbe aware\b|\bwatch out\b|\bfor future reference\b|\bgood to know\b"
    r"|\bbe careful (?:with|when|about|not)\b"
    r"|\b(?:must|needs? to|has to|have to|should) be (?:re-?started|re-?built|re-?run|"
    r"re-?generated|re-?installed|re-?loaded|re-?compiled|re-?created|run before|"
    r"run after|set before|cleared)\b"
    r"|\bonly works (?:if|when|with|after|on)\b|\bgotcha\b|\bimportant to (?:know|note|remember)\b"
    r"|\bremember that\b|\bsilently\b|\bdoes not pick up\b|\bdoesn'?t pick up\b"
    r"|\bis not (?:picked up|reloaded)\b|\bisn'?t (?:picked up|reloaded)\b",
    "note",
    "for later",
    "next time",
    "the future",
    "the record",
    "something to",
    "the catch",
    "nb",
    "n.b.",
    "gotcha",
    "heads",
    "important",
    "caveat",
    "warning",
    "tip",
    "fyi",
    "one thing",
    "worth",
    "flag",
    "before ",
    "keep in mind",
    "aware",
    "careful",
    "watch out",
    "future reference",
    "good to know",
    " be ",
    "only works",
    "remember that",
    "silently",
    "pick up",
    "picked up",
    "reloaded",
)
"""A sentence where the agent flags something as worth knowing."""

CAUSE = re.compile(
    r"\b(?:root cause|the (?:real )?(?:problem|issue|cause|culprit|bug|reason|error|failure) "
    r"(?:is|was|here is|here was|comes from|came from)|caused by|turns out|it turns out|"
    r"because|due to|that'?s why|which is why|this is why|the fix (?:is|was)|"
    r"fails? (?:because|when|if|since)|failing (?:because|since)|happens (?:because|when)|"
    r"so (?:it|the|they|every|any|each)|too (?:early|late|soon)|before the|after the|"
    r"expects?|requires?|isn'?t (?:set|created|installed|available|loaded|found)|"
    r"wasn'?t (?:set|created|installed|available|loaded|found)|"
    r"(?:doesn'?t|does not|don'?t|do not) (?:exist|create|set|support|load|include|match)|"
    r"known (?:\w+ ){0,2}(?:bug|issue|limitation|conflict|quirk)|"
    r"when|whenever|while|only|but|which (?:needs|requires|means|makes|is|are)|"
    r"without|, so)\b"
    r"|^[^:]{3,60}: \S+(?: \S+){4}",
    _I,
)
"""An agent's sentence that explains why something failed (read only between a failure
and the change after which the command passed, where most prose is the explanation)."""

STRONG_CAUSE = re.compile(
    r"\b(?:root cause|the (?:real )?(?:problem|issue|cause|culprit|bug|reason) "
    r"(?:is|was|here is|here was)|caused by|turns out|because|due to|"
    r"known (?:\w+ ){0,2}(?:bug|issue|limitation|conflict|quirk))\b",
    _I,
)

ASKS_FOR_WORK = re.compile(
    r"\b(?:can|could|would|will) (?:you|u)\b|\b(?:please|pls|plz)\b|\blet'?s\b|\bhelp me\b|"
    r"\b(?:we|i) (?:need|want|would like|'d like)\b|\bneeds? (?:to|a|an|the)\b|"
    r"\b(?:can|could|should|shall) (?:we|i)\b|"
    r"\b(?:has|have) to\b|\bshould\b|\b(?:how|what|why|which|where|when) (?:do|does|did|can|"
    r"should|would|is|are)\b|"
    r"^(?:\w+[,:] )?(?:add|write|wire|make|create|rename|implement|set up|build|port|convert|"
    r"refactor|update|bump|move|remove|delete|generate|migrate|fix|change|extend|replace|split|"
    r"clean|document|expose|introduce|support|enable|configure|deploy|upgrade|review|check|"
    r"look|run|try|give|show|tell|explain|find|commit|open|start|type|need|do|use|get|put)\b",
    _I,
)
"""A user's sentence that asks for work (or a question asked of the agent): no report."""

NARRATION = re.compile(
    r"^(?:i'?ll|i will|i'?m going to|i am going to|let me|let'?s (?:run|check|look|see|try|"
    r"start|verify|fix|update|make)|now (?:i|let|let'?s|we)|next,? |first,? |then,? |"
    r"running|checking|looking|reading|searching|opening|updating|fixing|adding|creating|"
    r"writing|great|done|perfect|all (?:tests? )?(?:pass|green)|sure|okay|ok|got it|"
    r"you'?re (?:right|welcome)|thanks|thank you|good (?:question|catch|point)|here'?s|"
    r"understood|noted|will do|fair (?:enough|point)|"
    r"the tests? (?:now )?pass|tests? (?:now )?pass|that (?:worked|fixed))\b",
    _I,
)
"""Routine narration of the agent's own steps: never a lesson."""

# ---- decisions ----------------------------------------------------------------------

PROPOSAL = Gated(
    r"\bi (?:suggest|recommend|propose|would (?:suggest|recommend|go with|use|prefer|pick))\b"
    r"|\bi'?d (?:suggest|recommend|go with|use|prefer|pick|lean towards?)\b"
    r"|\bmy (?:recommendation|suggestion|preference|vote)\b|\bi lean towards?\b"
    r"|\bwe (?:could|should|can) (?!not\b|see\b|check\b|look\b|run\b)\w+"
    r"|\bi(?:'d| would) (?!like\b|love\b|need\b|have\b|be\b|think\b|say\b|guess\b)\w+"
    r"|\boption (?:[a-c1-3]|one|two|three)\b|\bthe (?:better|best|simpler|safer|cleaner) "
    r"(?:option|approach|choice|fix|way)\b|\bhow about\b|\bshould we\b|\bshall (?:i|we)\b"
    r"|\bi think we should\b|\b(?:two|three|a few) (?:options|approaches|ways|choices)\b"
    r"|\bthe (?:fix|solution|way out|right fix|simplest fix|cleanest fix) is to\b",
    "suggest",
    "recommend",
    "propose",
    "i would",
    "i'd",
    "id ",
    "my ",
    "lean",
    "we could",
    "we should",
    "we can",
    "option",
    "better",
    "best",
    "simpler",
    "safer",
    "cleaner",
    "how about",
    "should we",
    "shall",
    "i think we",
    "approaches",
    "ways",
    "is to",
    "choices",
)
"""An agent's sentence that proposes a choice."""

REASON = re.compile(
    r"\b(?:because|since|so that|so (?:we|they|it|you|the)|as it|as they|which (?:means|keeps|"
    r"avoids|gives|"
    r"makes|lets|works)|to avoid|that way|this (?:keeps|avoids|means|gives)|it (?:keeps|avoids|"
    r"gives|means)|instead of|rather than|faster|simpler|safer|cheaper)\b"
    r"|, (?:so|which|while|whereas)\b"  # "…, which has no length cap"
    r"|\bso (?:\w+ ){1,3}(?:can|can'?t|cannot|stays?|keeps?|will|won'?t|never|always)\b"
    r"|\b(?:means|ensures|guarantees) (?:that |a |the |we |it |you )?\w+"  # "X means a crash …"
    r"|\brather\b.+?\bthan\b"  # "I'd rather poll than add a websocket"
    r"|(?<=\w)[:;] (?:they|it|that|this|these|those)\b"  # "I'd do all three: they are ids"
    r"|\bi(?:'d| would| suggest| recommend)\b[^:?]*(?<=\w): \S+(?: \S+){3}",
    # "I'd add it after migrate: supervisor only restarts …"
    _I,
)

CONFIRM = re.compile(
    r"^(?:yes|yep|yeah|yup|sure|ok|okay|agreed|agree|i agree|sounds (?:good|great|right)|"
    r"go (?:with|for|ahead)|let'?s (?:do|go|use|keep|take|pick)|do it|do that|lgtm|perfect|"
    r"makes sense|option|the (?:first|second|third|latter|former)|please do|correct|exactly|"
    r"that works|good (?:idea|call)|great|fine|approved|ship it|use|works for me|sgtm|"
    r"alright|all right|deal|yes please|do so)\b"
    r"|^(?:[\w.-]+ ){1,3}it is[.!]*$"  # "paraglide it is"
    r"|^(?:[\w.-]+ ){1,3}(?:sounds|seems|is) (?:good|great|right|fine|best)\b"
    r"|^[\w-]+(?:\.[\w-]+)*(?: [\w-]+(?:\.[\w-]+)*){0,2},? "
    r"(?:agreed|yes|yep|please|sounds good|lgtm|go for it|do it)\b"
    # "rest_for_one, agreed", "redis yes"
    r"|^\(?[1-3]\)?(?=[,.!:]|\s|$)|^\(?[a-c]\)?(?=[,.!:)]|$)"  # "3, weight critical 5 …"
    r"|^(?:do|take|pick|go with) \(?[a-c1-3]\)?(?=[,.!:]|\s|$)",  # "do b, …", "go with 2"
    _I,
)
"""A user's message that confirms a proposal starts like this."""

NOT_CONFIRM = re.compile(r"^(?:yes|ok|okay|sure)?[,.!]?\s*(?:but|though|however)\b", _I)

SMALL_TALK = re.compile(
    r"^(?:hi|hello|hey|thanks|thank you|thx|ty|cheers|good (?:morning|night|evening|job)|"
    r"great (?:job|work)|nice|cool|awesome|bye|see you|have a|lol|haha|how are you)\b",
    _I,
)
"""A whole message of greeting or thanks: nothing in it is a lesson."""
