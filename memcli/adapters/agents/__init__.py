"""Agent integrations: each agent's hook protocol and settings file."""
