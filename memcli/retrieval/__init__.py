"""What comes back: session-start context, prompt recall, budgets and Jinja rendering."""
