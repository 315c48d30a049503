"""The bodies of :class:`~memcli.api.MemStore`'s methods, by concern: ``writes`` (save,
dedupe, forget, promote), ``reads`` (search, get, timeline, list, context, recall,
transcripts), ``drafts`` (the lesson drafts' review), ``checks`` (arguments checked as
the command line checks them). ``memcli.api`` keeps each method's signature and
docstring; each module is imported on the first call that needs it."""
