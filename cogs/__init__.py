"""Discord cogs: thin layers that parse, authorise, call the service and render."""
