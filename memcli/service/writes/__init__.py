"""The write operations, each a module over :class:`~memcli.service.writer.Writer`'s
transaction core (the write lock, then one commit through ``Writer.commit_files``)."""
