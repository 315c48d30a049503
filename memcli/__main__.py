import os
import sys

# ``python -m memcli`` put its working directory first on sys.path; a git hook written
# by an older mem runs so in a store's work tree, whose files come with git: drop it
# before anything else is imported (``memcli.core.own_command`` passes -P instead).
if sys.path and os.path.realpath(sys.path[0] or ".") == os.path.realpath(os.getcwd()):
    del sys.path[0]

from memcli.adapters.cli.entry import main  # noqa: E402

main()
