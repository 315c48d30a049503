"""The warm worker: ``mem serve`` on the store's socket, asked first by hooks and reads.

``client`` is what a hook or command imports (the standard library only);
``server`` is the worker's side, imported by ``mem serve``.
"""
