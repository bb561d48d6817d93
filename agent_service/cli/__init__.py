"""Command-line entry points: serve, chat, seed the demo tenant, run everything locally."""
