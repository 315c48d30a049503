"""adapters.cli"""
