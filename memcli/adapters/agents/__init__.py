"""adapters.agents"""
